// `ainb disasm`: a file's EXB expressions as assembly text.

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>

#include "ainb/exb/disassembler.hpp"
#include "commands.hpp"
#include "registration.hpp"

namespace ainb::cli {

Command add_disasm_command(CLI::App& app) {
  auto function = std::make_shared<std::optional<std::uint32_t>>();
  auto* disasm = app.add_subcommand("disasm", "Print the EXB expressions as assembly text");
  auto run =
      with_model(*disasm, [function](const Model& model, std::ostream& out, std::ostream& err) {
        if (!model.expressions) {
          out << "; no EXB section\n";
          return kExitOk;
        }
        if (*function && **function >= model.expressions->functions.size()) {
          err << "error: --function " << **function << ": the file has "
              << model.expressions->functions.size() << " functions\n";
          return kExitUsage;
        }
        out << exb::disassemble(*model.expressions, *function);
        return kExitOk;
      });
  disasm->add_option("--function", *function, "Only this function");
  return {disasm, run};
}

}  // namespace ainb::cli
