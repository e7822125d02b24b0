// The disassembler against the newer reference library's listings (`*.ainb2.exb.txt`): every
// corpus function must mean the same thing (same operations, operands and constants).

#include <fstream>
#include <map>
#include <sstream>

#include <doctest/doctest.h>

#include "ainb/exb/disassembler.hpp"
#include "ainb/loader.hpp"
#include "corpus.hpp"

namespace {

std::vector<std::string> tokens(const std::string& line) {
  std::vector<std::string> out;
  std::string current;
  for (const char c : line) {
    if (c == ' ' || c == ',' || c == '(' || c == ')') {
      if (!current.empty()) out.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

bool number(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && !text.empty();
}

// The instruction lines of a listing, keyed "expressionN.block".
std::map<std::string, std::vector<std::string>> blocks(const std::string& listing) {
  std::map<std::string, std::vector<std::string>> out;
  std::istringstream in(listing);
  std::string line, function, key;
  while (std::getline(in, line)) {
    const auto trimmed = line.substr(std::min(line.find_first_not_of(' '), line.size()));
    if (trimmed.starts_with(".expression")) {
      function = tokens(trimmed)[0];
    } else if (trimmed == ".setup" || trimmed == ".main") {
      key = function + trimmed;
      out[key];
    } else if (trimmed.starts_with("0x")) {
      out[key].push_back(trimmed);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("disassembly means what the reference library's listing means") {
  std::size_t files = 0, compared = 0;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    auto listing_path = path;
    listing_path.replace_extension(".ainb2.exb.txt");
    if (!std::filesystem::exists(listing_path)) continue;
    CAPTURE(path.filename().string());
    std::ifstream in(listing_path);
    const std::string reference((std::istreambuf_iterator<char>(in)), {});
    const auto model = ainb::load_file(path);
    REQUIRE(model->expressions);
    const auto ours = blocks(ainb::exb::disassemble(*model->expressions));
    const auto theirs = blocks(reference);
    REQUIRE(ours.size() == theirs.size());
    for (const auto& entry : theirs) {  // not a structured binding: clang 14 cannot capture one
      const auto& key = entry.first;
      const auto& lines = entry.second;
      REQUIRE(ours.count(key) == 1);
      const auto& mine = ours.at(key);
      REQUIRE(mine.size() == lines.size());
      for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto a = tokens(lines[i]), b = tokens(mine[i]);
        bool same = a.size() == b.size();
        for (std::size_t t = 0; same && t < a.size(); ++t) {
          double x, y;
          if (a[t] == b[t]) continue;
          if (number(a[t], x) && number(b[t], y)) {
            same = static_cast<float>(x) == static_cast<float>(y);
          } else {
            same = a[t] == "INC" && b[t] == "DEC";  // the reference prints Decrement as INC
          }
        }
        CHECK_MESSAGE(same,
                      key << ": reference \"" << lines[i] << "\", ours \"" << mine[i] << "\"");
        ++compared;
      }
    }
    ++files;
  }
  MESSAGE(compared << " instructions in " << files << " files mean the same as the reference");
}
