#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "ainb/model.hpp"

namespace ainb::cli {

// Exit codes of every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitLoadError = 1;  // a file failed to load (the error is on stderr)
inline constexpr int kExitUsage = 2;      // bad command line

// Runs the `ainb` command line; `out` and `err` stand for stdout and stderr.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The readable summary `ainb info` prints.
std::string format_info(const Model& model);

struct EvalRequest {
  std::uint32_t function = 0;
  std::string input;
  std::string static_hex;
  std::vector<std::string> user;  // "SIGNATURE=VALUE"
};

// `ainb eval`: runs one EXB function and prints its output (eval.cpp).
int run_eval(const Model& model, const EvalRequest& request, std::ostream& out, std::ostream& err);

struct CatRequest {
  std::string file;
  std::string dictionaries;  // a folder of *.zsdic or TotK's ZsDic.pack.zs; empty: none
  std::string names;         // a file of AAMP names, one a line; empty: none
};

// `ainb cat`: prints a BYML, AAMP, SARC or zstd file as readable text (cat.cpp).
int run_cat(const CatRequest& request, std::ostream& out, std::ostream& err);

}  // namespace ainb::cli
