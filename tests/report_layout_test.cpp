// The report's own layout (report::layout_svg): the graph a page shows where Graphviz's dot cannot
// run. Its SVG names the elements as dot's does, on the example and on every real file.

#include <cmath>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/loader.hpp"
#include "ainb/report/dot.hpp"
#include "corpus.hpp"
#include "simulation_samples.hpp"

using namespace ainb;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

// The ids a page looks for: every node, command, child plug and transition plug.
std::set<std::string> expected_ids(const Model& m, const std::string& ids) {
  std::set<std::string> out{ids};
  for (std::size_t c = 0; c < m.commands.size(); ++c)
    out.insert(fmt::format("{}c{}", ids, c));
  for (std::uint32_t n = 0; n < m.nodes.size(); ++n) {
    out.insert(fmt::format("{}n{}", ids, n));
    for (std::size_t k = 0; k < m.plugs_of(m.nodes[n], PlugKind::Child).size(); ++k)
      out.insert(fmt::format("{}b{}_{}", ids, n, k));
    for (std::size_t k = 0; k < m.plugs_of(m.nodes[n], PlugKind::Transition).size(); ++k)
      out.insert(fmt::format("{}t{}_{}", ids, n, k));
  }
  return out;
}

std::set<std::string> svg_ids(const std::string& svg) {
  std::set<std::string> out;
  static const std::regex id(" id=\"([^\"]+)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), id); it != std::sregex_iterator();
       ++it)
    out.insert((*it)[1]);
  return out;
}

// The boxes' rectangles, from each node group's first shape: no two overlap.
struct Rect {
  double x0, y0, x1, y1;
};
std::vector<Rect> text_boxes(const std::string& svg) {
  // Each label's centre (x, y) stands for its box: boxes are 28 points high at least, so two
  // labels closer than that in both directions mean overlapping boxes in one column.
  std::vector<Rect> out;
  static const std::regex text(
      "<text text-anchor=\"middle\" x=\"([0-9.]+)\" y=\"([0-9.]+)\" "
      "font-family=\"Helvetica,sans-Serif\" font-size=\"10.00\">#");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text); it != std::sregex_iterator();
       ++it) {
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
    out.push_back({x - 1, y - 13, x + 1, y + 13});
  }
  return out;
}

void check_layout(const Model& m, const std::string& what) {
  const auto svg = report::layout_svg(report::graph_drawing(m, {.results = {}, .ids = "f0"}));
  CAPTURE(what);
  CHECK(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""));
  CHECK(count(svg, "<g") == count(svg, "</g>"));
  // Every number finite: no "nan" or "inf" in the tags (labels may hold the letters).
  const auto tags = std::regex_replace(svg, std::regex(">[^<]*<"), "><");
  CHECK(tags.find("nan") == std::string::npos);
  CHECK(tags.find("inf") == std::string::npos);
  const auto ids = svg_ids(svg);
  for (const auto& id : expected_ids(m, "f0")) {
    CAPTURE(id);
    CHECK(ids.count(id) == 1);
  }
  CHECK(count(svg, "class=\"node\"") >= m.nodes.size() + m.commands.size());
  const auto boxes = text_boxes(svg);
  CHECK(boxes.size() == m.nodes.size());
  for (std::size_t a = 0; a < boxes.size(); ++a) {
    for (std::size_t b = a + 1; b < boxes.size(); ++b) {
      const bool apart = boxes[a].x1 <= boxes[b].x0 || boxes[b].x1 <= boxes[a].x0 ||
                         boxes[a].y1 <= boxes[b].y0 || boxes[b].y1 <= boxes[a].y0;
      if (!apart) FAIL_CHECK(what << ": labels " << a << " and " << b << " overlap");
    }
  }
}

}  // namespace

TEST_CASE("the report's own layout names what dot's names, and places the example tidily") {
  const auto file = load_file(ainb::test::kPatrol);
  check_layout(*file, "patrol");
  const auto svg = report::layout_svg(report::graph_drawing(*file, {.results = {}, .ids = "f0"}));
  // A node group as the page's style and script read it: its id, then its shape, then its label.
  CHECK(svg.find("<g id=\"f0n4\" class=\"node\">\n<title>node4</title>\n<path fill=\"#ffffff\" "
                 "stroke=\"#999999\" d=\"M") != std::string::npos);
  CHECK(svg.find(">#4 MoveTo</text>") != std::string::npos);
  CHECK(svg.find("<g id=\"f0b1_0\" class=\"edge\">\n<title>node1&#45;&gt;node2</title>") !=
        std::string::npos);
  CHECK(svg.find(">True</text>") != std::string::npos);
  // Without ids (ainb graph's plain drawing) no element has one.
  CHECK(report::layout_svg(report::graph_drawing(*file)).find(" id=") == std::string::npos);
}

TEST_CASE("the report's own layout on every real file: every element named, no labels overlap") {
  std::size_t files = 0;
  for (const auto& path : ainb::test::all_real_ainb_files()) {
    const auto file = load_file(path);
    check_layout(*file, path.filename().string());
    ++files;
  }
  if (!ainb::test::corpus_dir().empty()) CHECK(files > 590);
}
