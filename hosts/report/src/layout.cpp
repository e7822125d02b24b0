// The report's own layout of a graph (layout_svg): where Graphviz's dot cannot run (not
// installed; the WebAssembly build, where a page cannot start a program). A layered drawing as
// dot's is, left to right: each box's column is its depth on a walk from the commands, its row
// comes from a tidy tree of that walk (a parent centred on its children), and lines are curves.
// The SVG names its elements as dot's does (DotOptions::ids), so the pages' script and style
// work on either (docs/report.md, "Graphs without Graphviz").

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "ainb/report/dot.hpp"
#include "markup.hpp"

namespace ainb::report {

namespace {

constexpr double kCharWidth = 5.6;  // Helvetica at 10 points, on average
constexpr double kPadding = 10;
constexpr double kLineHeight = 12;
constexpr double kBoxHeight = 28;
constexpr double kRowGap = 14;
constexpr double kColumnGap = 64;
constexpr double kMargin = 8;
constexpr double kArrow = 7;

using Box = Drawing::Box;
using Line = Drawing::Line;
using BoxKind = Drawing::BoxKind;
using LineKind = Drawing::LineKind;

// Characters, not bytes: a UTF-8 name is as wide as its letters.
double text_width(std::string_view text) {
  std::size_t letters = 0;
  for (const char c : text)
    letters += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return static_cast<double>(letters) * kCharWidth;
}

std::vector<std::string> label_lines(const Box& b) {
  std::vector<std::string> lines{b.label};
  if (b.kind == BoxKind::Module) lines.emplace_back("(module)");
  return lines;
}

struct Placed {
  const Box* box = nullptr;
  double x = 0, y = 0, width = 0, height = 0;  // top left, in points
  std::size_t column = 0;
  double centre_y() const { return y + height / 2; }
};

// Which lines a walk follows first: the tree's own (a command's roots, child plugs, transitions),
// then queries, then data links, so that a node sits beside its parent in the tree when it has one.
int walk_order(LineKind kind) {
  switch (kind) {
    case LineKind::Query:
      return 1;
    case LineKind::Data:
      return 2;
    default:
      return 0;
  }
}

class Layout {
 public:
  explicit Layout(const Drawing& drawing) {
    for (const auto& item : drawing.items) {
      if (const auto* b = std::get_if<Box>(&item)) {
        index_.emplace(b->key, boxes_.size());
        const auto lines = label_lines(*b);
        double width = 0;
        for (const auto& l : lines)
          width = std::max(width, text_width(l));
        boxes_.push_back(
            {.box = b,
             .width = width + 2 * kPadding + (b->kind == BoxKind::Command ? 8 : 0),
             .height = b->kind == BoxKind::Empty
                           ? kLineHeight
                           : kBoxHeight + kLineHeight * static_cast<double>(lines.size() - 1)});
      }
    }
    for (const auto& item : drawing.items) {
      if (const auto* l = std::get_if<Line>(&item)) lines_.push_back(l);
    }
    walk();
    place();
  }

  std::string svg(const Drawing& drawing) const {
    double width = 0, height = 0;
    for (const auto& p : boxes_) {
      width = std::max(width, p.x + p.width);
      height = std::max(height, p.y + p.height);
    }
    width += kMargin;
    height += kMargin + kRowGap;  // room for a line that bends below the last row
    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}pt\" height=\"{1:.0f}pt\" "
        "viewBox=\"0.00 0.00 {0:.2f} {1:.2f}\">\n<g{2} class=\"graph\">\n<title>{3}</title>\n",
        width, height, id_attribute(drawing.id), detail::escape_markup(drawing.name));
    for (const auto* l : lines_)
      out += line_svg(*l);
    for (const auto& p : boxes_)
      out += box_svg(p);
    out += "</g>\n</svg>\n";
    return out;
  }

 private:
  static std::string id_attribute(const std::string& id) {
    return id.empty() ? std::string() : fmt::format(" id=\"{}\"", detail::escape_markup(id));
  }

  // A depth-first walk from the commands (then from any box no walk reached, in file order): each
  // box's parent is the box the walk first reached it from.
  void walk() {
    std::vector<std::vector<std::size_t>> out(boxes_.size());
    std::vector<const Line*> ordered(lines_.begin(), lines_.end());
    std::stable_sort(ordered.begin(), ordered.end(), [](const Line* a, const Line* b) {
      return walk_order(a->kind) < walk_order(b->kind);
    });
    for (const auto* l : ordered) {
      const auto from = index_.find(l->from), to = index_.find(l->to);
      if (from != index_.end() && to != index_.end()) out[from->second].push_back(to->second);
    }
    children_.assign(boxes_.size(), {});
    std::vector<bool> seen(boxes_.size(), false);
    const auto from_root = [&](std::size_t root) {
      if (seen[root]) return;
      seen[root] = true;
      roots_.push_back(root);
      boxes_[root].column = 0;
      std::vector<std::pair<std::size_t, std::size_t>> stack{{root, 0}};  // box, next out-line
      while (!stack.empty()) {
        auto& [at, next] = stack.back();
        if (next == out[at].size()) {
          stack.pop_back();
          continue;
        }
        const auto to = out[at][next++];
        if (seen[to]) continue;
        seen[to] = true;
        children_[at].push_back(to);
        boxes_[to].column = boxes_[at].column + 1;
        stack.emplace_back(to, 0);
      }
    };
    for (std::size_t b = 0; b < boxes_.size(); ++b) {
      if (boxes_[b].box->kind == BoxKind::Command) from_root(b);
    }
    for (std::size_t b = 0; b < boxes_.size(); ++b)
      from_root(b);
  }

  // Rows: a leaf takes the next free row, a parent the middle of its children's; columns as wide
  // as their widest box.
  void place() {
    double cursor = kMargin;
    for (const auto root : roots_) {
      // Post-order without recursion (a walk can be as deep as the file has nodes).
      std::vector<std::pair<std::size_t, bool>> stack{{root, false}};
      while (!stack.empty()) {
        const auto [b, expanded] = stack.back();
        stack.pop_back();
        auto& p = boxes_[b];
        if (children_[b].empty()) {
          p.y = cursor;
          cursor += p.height + kRowGap;
        } else if (!expanded) {
          stack.emplace_back(b, true);
          for (auto c = children_[b].rbegin(); c != children_[b].rend(); ++c)
            stack.emplace_back(*c, false);
        } else {
          const auto middle =
              (boxes_[children_[b].front()].centre_y() + boxes_[children_[b].back()].centre_y()) /
              2;
          p.y = std::max(kMargin, middle - p.height / 2);
          cursor = std::max(cursor, p.y + p.height + kRowGap);
        }
      }
      cursor += kRowGap;
    }
    std::vector<double> column_width;
    for (const auto& p : boxes_) {
      if (p.column >= column_width.size()) column_width.resize(p.column + 1, 0);
      column_width[p.column] = std::max(column_width[p.column], p.width);
    }
    std::vector<double> column_x(column_width.size(), kMargin);
    for (std::size_t c = 1; c < column_x.size(); ++c)
      column_x[c] = column_x[c - 1] + column_width[c - 1] + kColumnGap;
    for (auto& p : boxes_)
      p.x = column_x[p.column] + (column_width[p.column] - p.width) / 2;
  }

  std::string box_svg(const Placed& p) const {
    const auto& b = *p.box;
    const auto x = p.x, y = p.y, w = p.width, h = p.height;
    const auto pen = b.reached ? "#000000" : "#999999";
    std::string shape;
    switch (b.kind) {
      case BoxKind::Command:
        shape = fmt::format(
            "<polygon fill=\"{}\" stroke=\"#000000\" points=\"{:.2f},{:.2f} {:.2f},{:.2f} "
            "{:.2f},{:.2f} {:.2f},{:.2f} {:.2f},{:.2f}\"/>\n",
            b.fill, x, y, x + w - 8, y, x + w, y + h / 2, x + w - 8, y + h, x, y + h);
        break;
      case BoxKind::Query:
        shape = fmt::format(
            "<ellipse fill=\"{}\" stroke=\"{}\" cx=\"{:.2f}\" cy=\"{:.2f}\" rx=\"{:.2f}\" "
            "ry=\"{:.2f}\"/>\n",
            b.fill, pen, x + w / 2, y + h / 2, w / 2 + 4, h / 2);
        break;
      case BoxKind::Module:
        shape = fmt::format(
            "<polygon fill=\"{}\" stroke=\"{}\" points=\"{:.2f},{:.2f} {:.2f},{:.2f} {:.2f},{:.2f} "
            "{:.2f},{:.2f}\"/>\n<polyline fill=\"none\" stroke=\"{}\" points=\"{:.2f},{:.2f} "
            "{:.2f},{:.2f} {:.2f},{:.2f} {:.2f},{:.2f}\"/>\n",
            b.fill, pen, x, y, x + w, y, x + w, y + h, x, y + h, pen, x - 4, y + 6, x + 4, y + 6,
            x + 4, y + 12, x - 4, y + 12);
        break;
      case BoxKind::Node: {
        const double r = 5;
        shape = fmt::format(
            "<path fill=\"{}\" stroke=\"{}\" d=\"M{:.2f},{:.2f} L{:.2f},{:.2f} Q{:.2f},{:.2f} "
            "{:.2f},{:.2f} L{:.2f},{:.2f} Q{:.2f},{:.2f} {:.2f},{:.2f} L{:.2f},{:.2f} "
            "Q{:.2f},{:.2f} {:.2f},{:.2f} L{:.2f},{:.2f} Q{:.2f},{:.2f} {:.2f},{:.2f} Z\"/>\n",
            b.fill, pen, x + r, y, x + w - r, y, x + w, y, x + w, y + r, x + w, y + h - r, x + w,
            y + h, x + w - r, y + h, x + r, y + h, x, y + h, x, y + h - r, x, y + r, x, y, x + r,
            y);
        break;
      }
      case BoxKind::Empty:
        break;
    }
    std::string text;
    const auto lines = label_lines(b);
    const double first =
        y + h / 2 - kLineHeight * static_cast<double>(lines.size() - 1) / 2 + 3.5;  // baseline
    for (std::size_t k = 0; k < lines.size(); ++k) {
      text += fmt::format(
          "<text text-anchor=\"middle\" x=\"{:.2f}\" y=\"{:.2f}\" "
          "font-family=\"Helvetica,sans-Serif\" "
          "font-size=\"10.00\"{}>{}</text>\n",
          x + w / 2, first + kLineHeight * static_cast<double>(k),
          b.kind == BoxKind::Empty ? " fill=\"#7f7f7f\"" : "", detail::escape_markup(lines[k]));
    }
    return fmt::format("<g{} class=\"node\">\n<title>{}</title>\n{}{}</g>\n", id_attribute(b.id),
                       detail::escape_markup(b.key), shape, text);
  }

  std::string line_svg(const Line& l) const {
    const auto from = index_.find(l.from), to = index_.find(l.to);
    if (from == index_.end() || to == index_.end()) return {};
    const auto& a = boxes_[from->second];
    const auto& b = boxes_[to->second];
    // Forward (to a later column): right side to left side. Otherwise a loop below both boxes,
    // bottom to bottom.
    const bool forward = b.x > a.x + a.width;
    double x1, y1, x2, y2, c1x, c1y, c2x, c2y;
    if (forward) {
      x1 = a.x + a.width, y1 = a.centre_y(), x2 = b.x, y2 = b.centre_y();
      const auto bend = (x2 - x1) / 2;
      c1x = x1 + bend, c1y = y1, c2x = x2 - bend, c2y = y2;
    } else {
      x1 = a.x + a.width / 2, y1 = a.y + a.height, x2 = b.x + b.width / 2, y2 = b.y + b.height;
      const auto below = std::max(y1, y2) + kRowGap + 10;
      c1x = x1, c1y = below, c2x = x2, c2y = below;
    }
    // The arrow's tip on the box; the curve ends at its base.
    const auto dx = x2 - c2x, dy = y2 - c2y;
    const auto length = std::max(1e-6, std::hypot(dx, dy));
    const auto ux = dx / length, uy = dy / length;
    const auto bx = x2 - ux * kArrow, by = y2 - uy * kArrow;
    const char* colour = "#000000";
    std::string dash;
    double stroke = 1;
    bool open = false;
    switch (l.kind) {
      case LineKind::Secondary:
        dash = "5,2";
        break;
      case LineKind::Transition:
        colour = "#3465a4";
        stroke = 2;
        break;
      case LineKind::Query:
        colour = "#7f7f7f";
        dash = "5,2";
        break;
      case LineKind::Data:
        colour = "#999999";
        dash = "1,5";
        open = true;
        break;
      default:
        break;
    }
    const auto attributes = fmt::format(
        "stroke=\"{}\"{}{}", colour, stroke != 1 ? fmt::format(" stroke-width=\"{}\"", stroke) : "",
        dash.empty() ? "" : fmt::format(" stroke-dasharray=\"{}\"", dash));
    std::string out = fmt::format(
        "<g{} class=\"edge\">\n<title>{}&#45;&gt;{}</title>\n<path fill=\"none\" {} "
        "d=\"M{:.2f},{:.2f} C{:.2f},{:.2f} {:.2f},{:.2f} {:.2f},{:.2f}\"/>\n",
        id_attribute(l.id), detail::escape_markup(l.from), detail::escape_markup(l.to), attributes,
        x1, y1, c1x, c1y, c2x, c2y, bx, by);
    const auto px = -uy * kArrow / 2, py = ux * kArrow / 2;
    out += fmt::format(
        "<{} fill=\"{}\" stroke=\"{}\" points=\"{:.2f},{:.2f} {:.2f},{:.2f} {:.2f},{:.2f}\"/>\n",
        open ? "polyline" : "polygon", open ? "none" : colour, colour, bx + px, by + py, x2, y2,
        bx - px, by - py);
    if (!l.label.empty()) {
      // The curve's middle (a cubic Bézier at t = 1/2), the label just above it.
      const auto mx = (x1 + 3 * c1x + 3 * c2x + bx) / 8, my = (y1 + 3 * c1y + 3 * c2y + by) / 8;
      out += fmt::format(
          "<text text-anchor=\"middle\" x=\"{:.2f}\" y=\"{:.2f}\" "
          "font-family=\"Helvetica,sans-Serif\" "
          "font-size=\"9.00\">{}</text>\n",
          mx, my - 3, detail::escape_markup(l.label));
    }
    out += "</g>\n";
    return out;
  }

  std::vector<Placed> boxes_;
  std::map<std::string, std::size_t, std::less<>> index_;
  std::vector<const Line*> lines_;
  std::vector<std::vector<std::size_t>> children_;
  std::vector<std::size_t> roots_;
};

}  // namespace

std::string layout_svg(const Drawing& drawing) {
  return Layout(drawing).svg(drawing);
}

}  // namespace ainb::report
