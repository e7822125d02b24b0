// Byte-exact round trips of the writer and the JSON text form: every corpus file through its
// model and through its text, hand-made 0x404 and 0x408 files, and the fields the text leaves
// out because they follow from the rest (name and file hashes, EXB use counts).

#include <cstddef>
#include <vector>

#include <doctest/doctest.h>

#include "ainb/loader.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
#include "ainb_builder.hpp"
#include "corpus.hpp"
#include "text_form_examples.hpp"

using namespace ainb;
using namespace ainb::test;
using json = nlohmann::ordered_json;

TEST_CASE("writer: every real file comes back byte for byte from its model") {
  const auto files = all_real_ainb_files();
  for (const auto& path : files) {
    CAPTURE(path.filename().string());
    const auto model = load_file(path);
    const auto bytes = writer::write(*model);
    CHECK(bytes == model->bytes);
    CHECK_FALSE(writer::first_difference(*model, bytes).has_value());
  }
  // ainb/, bulk/ainb/ and wide/ainb/ but the one refused file (tests/corpus-refusals.txt).
  if (!corpus_dir().empty()) CHECK(files.size() == 12 + 109 + 477);
}

TEST_CASE("text form: every real file comes back byte for byte through JSON") {
  for (const auto& path : all_real_ainb_files()) {
    CAPTURE(path.filename().string());
    const auto model = load_file(path);
    const auto text = writer::to_text(*model);
    const auto bytes = writer::from_text(reparse(text), path.string());
    CHECK(bytes == model->bytes);
  }
}

TEST_CASE("text form: JSON to AINB to JSON is stable for every real file") {
  for (const auto& path : all_real_ainb_files()) {
    CAPTURE(path.filename().string());
    const auto text = writer::to_text(*load_file(path));
    const auto again = writer::to_text(*load(writer::from_text(reparse(text)), "again.ainb"));
    CHECK(again == text);
  }
}

TEST_CASE("blackboard file references: the hashes follow from the path") {
  const auto ref = writer::file_reference("Work/Gdyml/game__enemy__TobyParam.gdyml");
  CHECK(ref.path_hash == 0xaa5575b3u);  // as Toby.action.basicattack.module.ainb stores them
  CHECK(ref.name_hash == 0xaaae85ceu);
  CHECK(ref.extension_hash == 0x9c20feb5u);
  // The name runs to the last dot: "Horablin.engine__component__BlackboardParamTable".
  const auto table = writer::file_reference(
      "Work/Component/Blackboard/BlackboardParamTable/"
      "Horablin.engine__component__BlackboardParamTable.gyml");
  CHECK(table.name_hash == 0x7011d0f2u);
  CHECK(table.extension_hash == 0x0b68a737u);
}

TEST_CASE("the derived fields agree with every corpus file, so the text form leaves them out") {
  std::size_t nodes = 0, with_expressions = 0, attachments = 0;
  for (const auto& path : corpus_ainb_files()) {
    CAPTURE(path.filename().string());
    const auto model = load_file(path);
    for (const auto& n : model->nodes) {
      CAPTURE(n.index);
      const auto use = expression_use(*model, n);
      CHECK(use.function_count == n.exb_function_count);
      CHECK(use.io_size == n.exb_io_size);
      ++nodes;
      with_expressions += use.function_count != 0 ? 1 : 0;
    }
    for (const auto& a : model->attachments) {
      const auto use = expression_use(*model, a);
      CHECK(use.function_count == a.exb_function_count);
      CHECK(use.io_size == a.exb_io_size);
      ++attachments;
    }
    CHECK(module_output_node_count(*model) == model->header.output_node_count);
    for (const auto& f : model->blackboard.file_references) {
      const auto derived = writer::file_reference(f.path);
      CHECK(derived.path_hash == f.path_hash);
      CHECK(derived.name_hash == f.name_hash);
      CHECK(derived.extension_hash == f.extension_hash);
    }
    const auto text = writer::to_text(*model);
    CHECK_FALSE(text["header"].contains("output_node_count"));
    for (const auto& n : text["nodes"]) {
      CHECK_FALSE(n.contains("exb_functions"));
      CHECK_FALSE(n.contains("exb_io_size"));
    }
    if (text.contains("blackboard_files")) {
      for (const auto& f : text["blackboard_files"])
        CHECK(f.size() == 1);  // the path alone
    }
  }
  if (!corpus_dir().empty()) {
    CHECK(nodes == 1005);
    CHECK(with_expressions == 22);
    CHECK(attachments == 12);
  }
}

TEST_CASE("writer: murmur3 name hashes are those of the corpus's node entries") {
  CHECK(writer::murmur3_32("") == 0);
  CHECK(writer::murmur3_32("hello") == 0x248bfa47u);
  for (const auto& path : corpus_ainb_files()) {
    const auto model = load_file(path);
    if (model->version() == kVersion404) continue;
    for (const auto& n : model->nodes)
      CHECK(n.name_hash == writer::murmur3_32(n.name));
  }
}

TEST_CASE("writer: hand-made 0x404 and 0x408 files round trip through the model and JSON") {
  AinbSpec spec;
  spec.version = kVersion408;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::U32, "Mask", std::uint32_t{0xF0F0F0F0u}},
                     {BlackboardType::S32, "Count", std::int32_t{-5}},
                     {BlackboardType::Vec3f, "Where", Vec3f{1, 2, 3}, "notes", 1}};
  BuildNode root{.type = NodeType::RandomSelector, .flags = node_flags::kIsRoot};
  root.plugs = {{PlugKind::Child, 1, "A", 0, random_weight(0.25f)},
                {PlugKind::Child, 2, "B", 0, random_weight(0.75f)}};
  BuildNode fork{.type = NodeType::Fork};
  fork.plugs = {{PlugKind::Transition, 2, "", 0}};
  BuildNode user{.name = "Act"};
  user.properties = {{ParamType::Int, "Count", std::int32_t{0}, 0x80000000u}};
  spec.nodes = {root, fork, user};
  spec.transitions = {{1, ""}, {0x80000000u, "Root"}};
  spec.replacements = {{0, 0, 1, 0}};
  const auto bytes = build(spec);
  const auto model = load(bytes, "hand.ainb");
  CHECK(writer::write(*model) == bytes);
  CHECK(writer::from_text(reparse(writer::to_text(*model))) == bytes);

  spec.version = kVersion404;
  spec.blackboard = {{BlackboardType::F32, "Speed", 2.5f}};
  spec.transitions = {};
  spec.replacements = {};
  spec.nodes[1].plugs = {};
  spec.nodes[2].properties = {{ParamType::Float, "Speed", 0.0f, 0x80000000u}};
  const auto bytes404 = build(spec);
  const auto model404 = load(bytes404, "hand404.ainb");
  CHECK(writer::write(*model404) == bytes404);
  CHECK(writer::from_text(reparse(writer::to_text(*model404))) == bytes404);
}
