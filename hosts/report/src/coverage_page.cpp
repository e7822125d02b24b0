// The page of an exploration: the graph coloured by what the runs reached.

#include <stdexcept>
#include <utility>

#include "ainb/report/page.hpp"
#include "page_parts.hpp"

namespace ainb::report {

Page coverage_page(const simulation::ExploreResult& result, const PageOptions& options) {
  if (!result.graph || !result.coverage)
    throw std::invalid_argument("coverage_page: the exploration has no graph or coverage");
  const auto dot = detail::dot_program(options);
  std::vector<detail::Side> sides;
  sides.push_back(detail::page_side(*result.graph, dot, "f", ""));
  nlohmann::json found = nlohmann::json::array();
  for (const auto& f : result.found) {
    nlohmann::json item{{"reaches", f.reaches},
                        {"scenario", f.name},
                        {"run", f.run},
                        {"file", result.coverage->graph_of(f.item.file).file_name()}};
    using Kind = simulation::Coverage::Item::Kind;
    if (f.item.kind == Kind::Node) item["node"] = f.item.index;
    if (f.item.kind == Kind::Branch) {
      const auto [node, plug] = result.coverage->branch_at(f.item);
      item["node"] = node;
      item["plug"] = plug;
    }
    found.push_back(std::move(item));
  }
  nlohmann::json coverage{
      {"runs", result.runs},
      {"all", result.coverage->to_json()},
      {"plain", result.plain ? nlohmann::json(result.plain->to_json()) : nlohmann::json()},
      {"found", std::move(found)}};
  const auto title =
      options.title.empty() ? "coverage of " + result.graph->file_name() : options.title;
  return detail::assemble("coverage", title, dot, std::move(sides), {{"coverage", coverage}});
}

}  // namespace ainb::report
