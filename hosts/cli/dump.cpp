// `ainb dump`: the complete model as JSON (the project's schema, or the reference tool's).

#include <fstream>
#include <memory>
#include <ostream>
#include <string>

#include "ainb/dump/json.hpp"
#include "commands.hpp"
#include "registration.hpp"

namespace ainb::cli {

Command add_dump_command(CLI::App& app) {
  struct Request {
    std::string format = "model";
    std::string output;
    int indent = 2;
  };
  auto request = std::make_shared<Request>();
  auto* dump = app.add_subcommand("dump", "Print the complete model as JSON");
  auto run = with_model(*dump, [request](const Model& model, std::ostream& out, std::ostream& err) {
    const auto json = request->format == "peer" ? dump_peer_json(model) : dump_json(model);
    const auto text =
        json.dump(request->indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    if (request->output.empty()) {
      out << text << '\n';
      return kExitOk;
    }
    std::ofstream file_out(request->output, std::ios::binary);
    file_out << text << '\n';
    if (!file_out) {
      err << "error: cannot write " << request->output << '\n';
      return kExitLoadError;
    }
    return kExitOk;
  });
  dump->add_option("--format", request->format,
                   "model: the project's schema (docs/dump-json.md); "
                   "peer: the layout of the reference Python tool")
      ->check(CLI::IsMember({"model", "peer"}))
      ->capture_default_str();
  dump->add_option("-o,--output", request->output, "Write to this file instead of standard output");
  dump->add_option("--indent", request->indent, "Spaces per indentation level (-1: one line)")
      ->check(CLI::Range(-1, 16))
      ->capture_default_str();
  return {dump, run};
}

}  // namespace ainb::cli
