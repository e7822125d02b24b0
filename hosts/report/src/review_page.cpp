// The review's page (assets/review.html): the counts, the table of files and verdicts, then each
// file's diff, first difference and what the runtime does not model under its name, folded
// unless the file behaves differently or does not load.

#include "ainb/report/review.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include <fmt/format.h>

#include "assets.hpp"
#include "markup.hpp"
#include "page_parts.hpp"

namespace ainb::report {

namespace {

using detail::escape_markup;

// A link's target with the characters a URL reads otherwise percent-encoded.
std::string url_path(const std::string& path) {
  std::string url;
  for (const unsigned char c : path) {
    if (std::isalnum(c) || c == '.' || c == '_' || c == '-' || c == '/')
      url += static_cast<char>(c);
    else
      url += fmt::format("%{:02X}", c);
  }
  return url;
}

constexpr std::array<const char*, 3> kOutcomeClasses = {"same", "different", "error"};

const char* outcome_class(ReviewOutcome outcome) {
  return kOutcomeClasses[static_cast<std::size_t>(outcome)];
}

bool has_details(const ReviewedFile& f) {
  return !f.diff.empty() || !f.regress.empty();
}

std::string table(const Review& review) {
  std::string out =
      "<table id=\"files\">\n<tr><th>file</th><th>change</th><th>verdict</th><th>edits</th>"
      "<th>details</th></tr>\n";
  for (std::size_t i = 0; i < review.files.size(); ++i) {
    const auto& f = review.files[i];
    const auto name = f.page.empty()
                          ? escape_markup(f.path)
                          : fmt::format("<a href=\"{}\">{}</a>", escape_markup(url_path(f.page)),
                                        escape_markup(f.path));
    out += fmt::format(
        "<tr class=\"{}\"><td class=\"file\">{}</td><td>{}</td><td class=\"verdict\">{}</td>"
        "<td class=\"edits\">{}</td><td>{}</td></tr>\n",
        outcome_class(f.outcome), name, f.change, escape_markup(f.verdict),
        f.change == "changed" ? std::to_string(f.edits) : "",
        has_details(f) ? fmt::format("<a href=\"#file-{}\">below</a>", i) : "");
  }
  return out + "</table>\n";
}

std::string details(const Review& review) {
  std::string out;
  for (std::size_t i = 0; i < review.files.size(); ++i) {
    const auto& f = review.files[i];
    if (!has_details(f)) continue;  // its row says it all
    // Open where a file needs a look: it behaves differently or does not load.
    out += fmt::format(
        "<details id=\"file-{}\" class=\"{}\"{}><summary><code>{}</code> — {}</summary>\n", i,
        outcome_class(f.outcome), f.outcome == ReviewOutcome::Same ? "" : " open",
        escape_markup(f.path), escape_markup(f.verdict));
    if (!f.page.empty())
      out += fmt::format("<p><a href=\"{}\">its page</a></p>\n", escape_markup(url_path(f.page)));
    if (!f.diff.empty())
      out += "<h3>ainb diff</h3>\n<pre class=\"diff\">" + escape_markup(f.diff) + "</pre>\n";
    if (!f.regress.empty())
      out += fmt::format("<h3>{}</h3>\n<pre class=\"regress\">{}</pre>\n",
                         escape_markup(f.exploration), escape_markup(f.regress));
    if (!f.unmodelled.empty()) {
      out += "<h3>Not modelled on the changed nodes</h3>\n<ul class=\"unmodelled\">\n";
      for (const auto& line : f.unmodelled)
        out += "<li>" + escape_markup(line) + "</li>\n";
      out += "</ul>\n";
    }
    out += "</details>\n";
  }
  return out;
}

}  // namespace

std::string review_counts(const Review& review) {
  const auto count = [&](const char* change) {
    return std::count_if(review.files.begin(), review.files.end(),
                         [&](const ReviewedFile& f) { return f.change == change; });
  };
  return fmt::format("{} AI file(s) changed, {} added, {} removed, {} unchanged.", count("changed"),
                     count("added"), count("removed"), review.unchanged);
}

std::string review_page(const Review& review) {
  const auto title = escape_markup(fmt::format("ainb review: {} → {}", review.base, review.head));
  const auto counts = escape_markup(review_counts(review));
  std::string files = "<p class=\"hint\">No AI file differs.</p>\n";
  if (!review.files.empty()) {
    const auto folded = details(review);
    files = table(review) + (folded.empty() ? "" : "<h2>Files</h2>\n" + folded);
  }
  return detail::fill_template(assets::review_html,
                               {{"TITLE", title}, {"COUNTS", counts}, {"FILES", files}});
}

}  // namespace ainb::report
