#pragma once

// The page of `ainb review BASE HEAD` (docs/review.md): the table of the AI files added, removed
// or changed between two versions of a mod with their verdicts, each changed file linked to its
// own page (a regression's or an exploration's, written beside it), and each file's diff and
// first difference below, folded. A static page: no script, no network.

#include <cstddef>
#include <string>
#include <vector>

namespace ainb::report {

// Worst last: a review's outcome is its files' worst.
enum class ReviewOutcome { Same, Different, Error };

struct ReviewedFile {
  std::string path;     // in the version, as the review lists it
  std::string change;   // "changed", "added" or "removed"
  std::string verdict;  // one line
  ReviewOutcome outcome = ReviewOutcome::Same;
  std::size_t edits = 0;                // the diff's changes (a changed file)
  std::string diff;                     // as `ainb diff` prints it
  std::string regress;                  // the first difference as `ainb regress` prints it
  std::string exploration;              // what regress --explore ran
  std::vector<std::string> unmodelled;  // the changed nodes' stubs and properties not honoured
  std::string page;                     // its page, relative to the review's; empty: none
};

struct Review {
  std::string base, head;  // the versions' names
  std::vector<ReviewedFile> files;
  std::size_t unchanged = 0;  // AI files in both, byte for byte the same
};

// "N AI file(s) changed, N added, N removed, N unchanged."
std::string review_counts(const Review& review);

std::string review_page(const Review& review);

}  // namespace ainb::report
