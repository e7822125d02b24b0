// The `ainb` command line: output, exit codes and messages.

#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

#include <doctest/doctest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "commands.hpp"
#include "corpus.hpp"
#include "scratch.hpp"
#include "terminal.hpp"

using ainb::test::ainb_cli;

using ainb::test::write_scratch;

TEST_CASE("ainb info summarises a file") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto r = ainb_cli({"info", (dir / "ainb/Horablin_Escape.actionseq.root.ainb").string()});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find("version:     0x407\n") != std::string::npos);
  CHECK(r.out.find("  nodes               81\n") != std::string::npos);
  CHECK(r.out.find("  EXB functions       2 (EXB v2, 7 instructions)\n") != std::string::npos);
  CHECK(r.out.find("  Root                     -> node 47 Element_Sequential\n") !=
        std::string::npos);
  CHECK(r.out.find("  Element_F32Selector              1\n") != std::string::npos);
  CHECK(r.out.find("  CheckEndEscapeFromTerror.module.ainb (AI, 1 instance)\n") !=
        std::string::npos);
  CHECK(r.out.find("user functions called by expressions (the host registers these):\n"
                   "  Actor.Pos( Vector3F )\n") != std::string::npos);
}

TEST_CASE("text for a terminal shows control characters as escapes") {
  using ainb::cli::printable;
  // C0 controls (newline and tab too), DEL, the UTF-8 C1 controls and bytes that are not UTF-8
  // (a lone 0x9B, an overlong form, a cut sequence); "©" (C2 A9) and Japanese are kept.
  CHECK(printable("a\x1b[2Jb\n\t\x7f") == "a\\x1b[2Jb\\x0a\\x09\\x7f");
  CHECK(printable("\xc2\x9b"
                  "31m \xc2\xa9 その他") == "\\xc2\\x9b31m \xc2\xa9 その他");
  CHECK(printable("\x9b"
                  "2J \xe0\x82\x9b \xff \xe3\x81 end \xc2") ==
        "\\x9b2J \\xe0\\x82\\x9b \\xff \\xe3\\x81 end \\xc2");

  // What a terminal receives through a TerminalText.
  const auto shown = [](bool ascii_only, const std::function<void(std::ostream&)>& write) {
    std::ostringstream stream;
    {
      const ainb::cli::TerminalText terminal(stream, true, ascii_only);
      write(stream);
    }
    return stream.str();
  };
  SUBCASE("the stream buffer keeps lines and tabs, and holds a sequence across writes") {
    CHECK(shown(false, [](std::ostream& s) {
            s << "name: \x1b]0;title\x07\tok\n" << '\xc2';
            s.flush();  // the held byte waits for the next
            s << '\x9b' << "x \xe3\x81"
              << "\xae \xc2";
          }) == "name: \\x1b]0;title\\x07\tok\n\\xc2\\x9bx \xe3\x81\xae \\xc2");
  }
  SUBCASE("a locale that is not UTF-8: every byte from 0x80 up is escaped") {
    CHECK(shown(true, [](std::ostream& s) { s << "その\n"; }) ==
          "\\xe3\\x81\\x9d\\xe3\\x81\\xae\n");
  }
  SUBCASE("the locale decides: its character set, or the name of one the system lacks") {
    const char* before = std::getenv("LC_ALL");
    const std::string saved = before != nullptr ? before : "";
    const auto utf8_with = [](const char* value) {
      setenv("LC_ALL", value, 1);
      return ainb::cli::locale_is_utf8();
    };
    CHECK(utf8_with("C.UTF-8"));
    CHECK_FALSE(utf8_with("C"));
    CHECK(utf8_with("xx_YY.UTF-8"));  // not installed: named UTF-8
    CHECK_FALSE(utf8_with("xx_YY.ISO-8859-1"));
    if (before != nullptr) {
      setenv("LC_ALL", saved.c_str(), 1);
    } else {
      unsetenv("LC_ALL");
    }
  }
  SUBCASE("not a terminal: the bytes pass unchanged") {
    std::ostringstream stream;
    {
      const ainb::cli::TerminalText terminal(stream, false, true);
      stream << "\x1b[2J\x9b";
    }
    CHECK(stream.str() == "\x1b[2J\x9b");
  }
  SUBCASE("log lines") {
    std::ostringstream out;
    auto lines = std::make_shared<spdlog::sinks::ostream_sink_st>(out);
    lines->set_pattern("%v");
    spdlog::logger logger("test", ainb::cli::printable_sink(lines));
    logger.warn("module \"{}\" not found", "evil\x1b[2J\nline");
    CHECK(out.str() == "module \"evil\\x1b[2J\\x0aline\" not found\n");
  }
}

TEST_CASE("ainb dump prints the model and the peer layout as JSON") {
  ainb::test::AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {ainb::test::BuildNode{.name = "Idle"}};
  const auto path = write_scratch("cli_dump.ainb", ainb::test::build(spec));

  const auto model = ainb_cli({"dump", path.string()});
  REQUIRE(model.code == 0);
  const auto json = nlohmann::json::parse(model.out);
  CHECK(json["schema"] == "ainb-dump/1");
  CHECK(json["nodes"][0]["name"] == "Idle");
  CHECK(json["commands"][0]["root"] == 0);

  const auto peer = ainb_cli({"dump", "--format", "peer", path.string()});
  REQUIRE(peer.code == 0);
  const auto peer_json = nlohmann::json::parse(peer.out);
  CHECK(peer_json["Info"]["Version"] == "0x407");
  CHECK(peer_json["Nodes"][0]["Name"] == "Idle");

  const auto out_path = ainb::test::scratch_dir() / "cli_dump.json";
  CHECK(ainb_cli({"dump", "-o", out_path.string(), path.string()}).code == 0);
  std::ifstream written(out_path);
  CHECK(nlohmann::json::parse(written)["nodes"][0]["name"] == "Idle");
}

TEST_CASE("ainb dump prints NaN and infinities as the strings the text form uses, not null") {
  ainb::test::AinbSpec spec;
  spec.file_name = "odd.root";
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{ainb::BlackboardType::F32, "Far", std::numeric_limits<float>::infinity()},
                     {ainb::BlackboardType::F32, "Odd", std::numeric_limits<float>::quiet_NaN()}};
  spec.nodes = {{.type = ainb::NodeType::UserDefined, .name = "Wait"}};
  const auto file = ainb::test::write_scratch("odd.root.ainb", ainb::test::build(spec)).string();
  const auto dump = nlohmann::json::parse(ainb_cli({"dump", file}).out);
  CHECK(dump["blackboard"]["entries"][0]["default"] == "inf");
  CHECK(dump["blackboard"]["entries"][1]["default"] == "nan");
  const auto peer = ainb_cli({"dump", file, "--format", "peer"}).out;
  CHECK(peer.find("\"inf\"") != std::string::npos);
  CHECK(peer.find("null") == std::string::npos);
}

TEST_CASE("exit codes: 0 success, 1 load failure, 2 usage") {
  const auto help = ainb_cli({"--help"});
  CHECK(help.code == 0);
  CHECK(help.out.find("info") != std::string::npos);
  CHECK(ainb_cli({"dump", "--help"}).out.find("--format") != std::string::npos);

  const auto none = ainb_cli({});
  CHECK(none.code == 2);
  CHECK(none.err == "error: A subcommand is required\nrun `ainb --help` for usage\n");
  CHECK(ainb_cli({"info"}).code == 2);
  CHECK(ainb_cli({"dump", "--format", "xml", "f.ainb"}).code == 2);
  CHECK(ainb_cli({"frobnicate"}).code == 2);

  const auto missing = ainb_cli({"info", "/nonexistent/x.ainb"});
  CHECK(missing.code == 1);
  CHECK(missing.err ==
        "error: /nonexistent/x.ainb: file at offset 0x0: cannot read file: No such file or "
        "directory\n");

  const auto bad = write_scratch("cli_bad.ainb", {'A', 'I', 'B', ' ', 0x09, 0x04, 0, 0});
  const auto r = ainb_cli({"info", bad.string()});
  CHECK(r.code == 1);
  CHECK(r.err ==
        "error: " + bad.string() +
            ": header at offset 0x0: file is 8 bytes, too small for the 0x74-byte header\n");
}

TEST_CASE("a folder or an out-of-range option is an error message, never a crash") {
  const auto folder = ainb::test::scratch_dir().string();
  const auto cat = ainb_cli({"cat", folder});
  CHECK(cat.code == 1);
  CHECK(cat.err ==
        "error: " + folder + ": file at offset 0x0: cannot read the file: Is a directory\n");
  const auto info = ainb_cli({"info", folder});
  CHECK(info.code == 1);
  const auto indent = ainb_cli({"dump", "x.ainb", "--indent", "100000"});
  CHECK(indent.code == 2);
  CHECK(indent.err.starts_with("error: --indent: Value 100000 not in range -1 to 16\n"));
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto lint =
      ainb_cli({"lint", (dir / "ainb/Toby.utility.root.ainb").string(), "--defs", folder});
  CHECK(lint.code == 2);
  CHECK(lint.err ==
        "error: " + folder + ": file at offset 0x0: cannot read the file: Is a directory\n");
}

TEST_CASE("a string that is not UTF-8: JSON output replaces its bytes, the text form names it") {
  ainb::test::AinbSpec spec;
  spec.file_name = "latin1.root";
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {{.type = ainb::NodeType::UserDefined, .name = "Caf\xe9"}};  // Latin-1, not UTF-8
  const auto file = ainb::test::write_scratch("latin1.root.ainb", ainb::test::build(spec)).string();
  const auto convert = ainb_cli({"convert", file, file + ".json"});
  CHECK(convert.code == 1);
  CHECK(convert.err == "error: " + file +
                           ": the text form needs UTF-8 strings, and /commands/0/root_name is not "
                           "UTF-8 (a byte the file's string table holds is not text)\n");
  const auto dump = ainb_cli({"dump", file});
  CHECK(dump.code == 0);
  CHECK(dump.out.find("\"Caf\xef\xbf\xbd\"") != std::string::npos);  // U+FFFD
  const auto trace = ainb_cli({"run", file, "--frames", "1", "--trace", "-"});
  CHECK(trace.code == 0);
  CHECK(trace.out.find("\"type\":\"Caf\xef\xbf\xbd\"") != std::string::npos);
}

TEST_CASE("ainb disasm and ainb eval") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto toby = (dir / "ainb/Toby.utility.root.ainb").string();
  const auto disasm = ainb_cli({"disasm", toby, "--function", "4"});
  CHECK(disasm.code == 0);
  CHECK(disasm.out ==
        ".version 2\n\n"
        ".expression4 input=VECTOR3F output=VECTOR3F static=0x10 scratch32=0x0 scratch64=0x0\n"
        "    .main\n"
        "        0x0000    STR vec3f GMem[0x0], vec3f In[0x0]\n"
        "        0x0008    VMS vec3f GMem[0x0], float 100.0\n"
        "        0x0010    STR vec3f Out[0x0], vec3f GMem[0x0]\n"
        "        0x0018    END\n");
  CHECK(ainb_cli({"disasm", toby, "--function", "6"}).code == 2);

  const auto scaled = ainb_cli({"eval", toby, "--function", "4", "--input", "1,2,3"});
  CHECK(scaled.code == 0);
  CHECK(scaled.out == "VECTOR3F (100, 200, 300)\n");

  const auto missing = ainb_cli({"eval", toby, "--function", "0"});
  CHECK(missing.code == 1);
  CHECK(missing.err ==
        "error: no user function is registered for \"GetBBCodeBool( Bool, Int )\"\n"
        "pass its result with --user 'SIGNATURE=VALUE'\n");
  const auto with_user =
      ainb_cli({"eval", toby, "--function", "0", "--user", "GetBBCodeBool( Bool, Int )=true"});
  CHECK(with_user.out == "BOOL true\n");

  const auto basic = (dir / "ainb/Toby.action.basicattack.module.ainb").string();
  CHECK(ainb_cli({"eval", basic, "--function", "2", "--input", "12.5"}).out == "FLOAT 2.5\n");
  CHECK(ainb_cli({"eval", basic, "--function", "2", "--input", "abc"}).code == 2);
  // The whole value is read: trailing characters are refused, not ignored.
  const auto trailing = ainb_cli({"eval", basic, "--function", "2", "--input", "12abc"});
  CHECK(trailing.code == 2);
  CHECK(trailing.err == "error: --input 12abc: not a FLOAT value\n");
  const auto no_input = ainb_cli({"eval", toby, "--function", "0", "--input", "5"});
  CHECK(no_input.code == 2);
  CHECK(no_input.err == "error: --input 5: function 0 takes no input\n");
  const auto not_hex = ainb_cli({"eval", basic, "--function", "2", "--static", "zz"});
  CHECK(not_hex.code == 2);
  CHECK(not_hex.err ==
        "error: --static zz: expected bytes as pairs of hex digits, without "
        "spaces (e.g. 0000c842)\n");
  const auto unused = ainb_cli({"eval", toby, "--function", "0", "--user",
                                "GetBBCodeBool( Bool, Int )=true", "--user", "Nope( Bool )=true"});
  CHECK(unused.out == "BOOL true\n");
  CHECK(unused.err ==
        "warning: --user Nope( Bool )=true: the file calls no function \"Nope( "
        "Bool )\"\n");
  const auto counter =
      ainb_cli({"eval", basic, "--function", "1", "--user", "GetBBCodeInt( Int, Int )=41"});
  CHECK(counter.out == "INT 42\n");

  const auto battery = (dir / "ainb/Accessory_Battery_Event.event.root.ainb").string();
  CHECK(ainb_cli({"eval", battery, "--function", "0"}).out == "UserOut BOOL[0] = true\n");
}

TEST_CASE("ainb cat prints BYML, AAMP, SARC listings and zstd payloads") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto byml =
      ainb_cli({"cat", (dir / "byml/Mrg_01e57204_MrgD100_B4-B3-B2-1A90E17A.bcett.byml").string()});
  CHECK(byml.code == 0);
  CHECK(byml.err.empty());
  CHECK(byml.out.starts_with(
      "# BYML v4, little endian\nroot:\n  Actors:\n    -\n      Bakeable: true\n"));
  CHECK(byml.out.find("      Hash: !ul 934954474910587728\n") != std::string::npos);
  CHECK(byml.out.find("      SRTHash: !u 0xc287ff70\n") != std::string::npos);
  CHECK(byml.out.find("        - 0.51400006\n") != std::string::npos);

  const auto aamp = ainb_cli({"cat", (dir / "aamp/Horse.blifecondition").string()});
  CHECK(aamp.code == 0);
  CHECK(aamp.out.find("!io\nversion: 0\ntype: xml\nparam_root: !list\n  objects:\n") !=
        std::string::npos);
  CHECK(aamp.out.find(": 200.0\n") != std::string::npos);  // names unknown: hashes print
  // With names, they print instead of hashes.
  const auto names = write_scratch("cli_cat_names.txt", "DisplayDistance\nItem\n");
  const auto named =
      ainb_cli({"cat", (dir / "aamp/Horse.blifecondition").string(), "--names", names.string()});
  CHECK(named.out.find("    DisplayDistance: !obj\n      Item: 200.0\n") != std::string::npos);

  const auto pack = ainb_cli({"cat", (dir / "packs/Accessory_Battery.pack.zs").string(), "--dict",
                              (dir / "zsdic").string()});
  CHECK(pack.code == 0);
  CHECK(
      pack.out.starts_with("# zstd, dictionary ID 3, 110256 bytes decompressed\n# SARC, little "
                           "endian, version 0x100, 18 files (name: size)\n"));
  CHECK(pack.out.find("AI/Accessory_Battery.root.ainb: 570\n") != std::string::npos);
  // The same with the dictionaries taken from ZsDic.pack.zs.
  const auto from_pack = ainb_cli({"cat", (dir / "packs/Accessory_Battery.pack.zs").string(),
                                   "--dict", (dir / "zsdic/ZsDic.pack.zs").string()});
  CHECK(from_pack.out == pack.out);

  const auto no_dict = ainb_cli({"cat", (dir / "packs/Accessory_Battery.pack.zs").string()});
  CHECK(no_dict.code == 1);
  CHECK(no_dict.out.empty());
  CHECK(no_dict.err.find("the frame needs zstd dictionary ID 3, which is not loaded (loaded IDs: "
                         "none; TotK's are in the romfs's Pack/ZsDic.pack.zs: `--romfs` or "
                         "`--zsdic` in the ainb tools)\n") != std::string::npos);
  // One file of a pack, named PACK:MEMBER as the AI commands name them.
  const auto pack_path = (dir / "packs/Accessory_Battery.pack.zs").string();
  const auto member =
      ainb_cli({"cat", pack_path + ":Actor/Accessory_Battery.engine__actor__ActorParam.bgyml",
                "--zsdic", (dir / "zsdic").string()});
  CHECK(member.code == 0);
  CHECK(member.out.starts_with("# BYML v7, little endian\nroot:\n  Category: Accessory\n"));
  const auto no_member =
      ainb_cli({"cat", pack_path + ":Nope", "--zsdic", (dir / "zsdic").string()});
  CHECK(no_member.code == 1);
  CHECK(no_member.err ==
        "error: " + pack_path +
            ": SARC at offset 0x0: the pack has no file Nope (it holds 18 files)\n");
  const auto ainb_file = ainb_cli({"cat", (dir / "ainb/Accessory_Battery.root.ainb").string()});
  CHECK(ainb_file.code == 0);
  CHECK(ainb_file.out == "# AINB file, 570 bytes (see `ainb info`)\n");
}

TEST_CASE("ainb cat: errors and usage") {
  const auto path = write_scratch("cli_cat_bad.byml", {'Y', 'B', 2, 0, 0, 0});
  const auto bad = ainb_cli({"cat", path.string()});
  CHECK(bad.code == 1);
  CHECK(bad.err == "error: " + path.string() +
                       ": BYML header at offset 0x0: header (0x10 bytes) runs past the end of the "
                       "data (size 0x6)\n");
  const auto unknown =
      ainb_cli({"cat", write_scratch("cli_cat.txt", {'h', 'i', '!', '\n'}).string()});
  CHECK(unknown.code == 1);
  CHECK(unknown.err.find("unknown magic") != std::string::npos);
  CHECK(ainb_cli({"cat", "/nonexistent/x.byml"}).code == 1);
  const auto no_dict = ainb_cli({"cat", path.string(), "--dict", "/nonexistent/ZsDic.pack.zs"});
  CHECK(no_dict.code == 1);
  CHECK(no_dict.err ==
        "error: /nonexistent/ZsDic.pack.zs: file at offset 0x0: cannot read the file: No such file "
        "or directory\n");
  CHECK(ainb_cli({"cat"}).code == 2);
  CHECK(ainb_cli({"cat", path.string(), "--bogus"}).code == 2);
}
