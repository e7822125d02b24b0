#include "ainb/simulation/run_options.hpp"

#include <array>

namespace ainb::simulation {

std::span<const RunOptionInfo> run_option_table() {
#define AINB_RUN_OPTION_INFO(name, kind, value, most, takers, flag, help) \
  RunOptionInfo{#name, OptionKind::kind, most, takers, flag, help},
  static constexpr std::array table{AINB_RUN_OPTIONS(AINB_RUN_OPTION_INFO)};
#undef AINB_RUN_OPTION_INFO
  return table;
}

}  // namespace ainb::simulation
