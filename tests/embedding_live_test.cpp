// ainb-game --serve (hosts/embedding/live.hpp): the page's messages read and applied, the
// server's messages written, and a held actor skipping its ticks, without a socket. The stream
// itself is tested in a browser (tests/web/test_live.py).

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "build_paths.hpp"
#include "corpus.hpp"
#include "game.hpp"
#include "live.hpp"

using namespace ainb;

TEST_CASE("live: the page's messages, read") {
  CHECK(game::parse_control(R"({"pause": true})").pause == true);
  CHECK(game::parse_control(R"({"pause":false})").pause == false);
  CHECK(game::parse_control(R"({"step": 1})").step == 1);
  CHECK(game::parse_control(R"({"step": 3600})").step == 3600);
  const std::string expected =
      R"((expected {"pause": true}, {"pause": false} or {"step": N}, N from 1 to 3600))";
  const auto error = [](std::string_view message) {
    const auto control = game::parse_control(message);
    CHECK_FALSE(control.pause);
    CHECK(control.step == 0);
    return control.error;
  };
  CHECK(error("pause") == R"(message "pause": not JSON )" + expected);
  CHECK(error("") == R"(message "": not JSON )" + expected);
  CHECK(error(R"([1])") == R"(message "[1]": not an object with one key )" + expected);
  CHECK(error(R"({"pause": true, "step": 1})") ==
        R"(message "{\"pause\": true, \"step\": 1}": not an object with one key )" + expected);
  CHECK(error(R"({"pause": 1})") ==
        R"(message "{\"pause\": 1}": "pause" is not true or false )" + expected);
  CHECK(error(R"({"step": 0})").starts_with(R"(message "{\"step\": 0}": "step" is not a whole)"));
  CHECK(error(R"({"step": 3601})").find("not a whole number in range") != std::string::npos);
  CHECK(error(R"({"step": 1.5})").find("not a whole number in range") != std::string::npos);
  CHECK(error(R"({"step": -1})").find("not a whole number in range") != std::string::npos);
  CHECK(error(R"({"stop": 1})") == R"(message "{\"stop\": 1}": unknown key )" + expected);
  // Long messages are cut in the error; bytes that are not UTF-8 are shown replaced, not thrown.
  CHECK(error(std::string(500, 'x')).starts_with("message \"" + std::string(80, 'x') + "\"…: "));
  CHECK(error("\xff\xfe").starts_with("message \"\xEF\xBF\xBD\xEF\xBF\xBD\": not JSON"));
}

TEST_CASE("live: pause, step and resume, and the replies") {
  game::Remote remote;
  CHECK(remote.ticks());
  CHECK(nlohmann::json::parse(remote.apply(R"({"pause": true})", 7)) ==
        nlohmann::json{{"paused", true}, {"frame", 7}});
  CHECK_FALSE(remote.ticks());
  CHECK_FALSE(remote.ticks());
  remote.apply(R"({"step": 2})", 9);
  CHECK(remote.paused());
  CHECK(remote.ticks());
  CHECK(remote.ticks());
  CHECK_FALSE(remote.ticks());  // paused again after its steps
  // A bad message changes nothing; its reply says why.
  const auto reply = nlohmann::json::parse(remote.apply("{", 10));
  CHECK(reply.at("error").get<std::string>().starts_with(R"(message "{": not JSON)"));
  CHECK(remote.paused());
  remote.apply(R"({"step": 5})", 11);
  remote.apply(R"({"pause": false})", 11);  // resuming forgets the steps left
  CHECK_FALSE(remote.paused());
  remote.apply(R"({"pause": true})", 12);
  CHECK_FALSE(remote.ticks());
}

TEST_CASE("live: the server's messages") {
  CHECK(game::base64("") == "");
  CHECK(game::base64("f") == "Zg==");
  CHECK(game::base64("fo") == "Zm8=");
  CHECK(game::base64("foo") == "Zm9v");
  CHECK(game::base64(std::string("\0\xff\x10", 3)) == "AP8Q");
  const std::vector<game::LiveFile> modules{{"b.module.ainb", "fo"}, {"c.module.ainb", ""}};
  const auto hello =
      nlohmann::json::parse(game::hello_message(3, {"a.root.ainb", "AINB"}, modules));
  CHECK(hello == nlohmann::json{{"hello",
                                 {{"actor", 3},
                                  {"file", "a.root.ainb"},
                                  {"bytes", "QUlOQg=="},
                                  {"modules",
                                   {{{"file", "b.module.ainb"}, {"bytes", "Zm8="}},
                                    {{"file", "c.module.ainb"}, {"bytes", ""}}}}}}});
  CHECK(nlohmann::json::parse(game::hello_message(
            0, {"a.root.ainb", ""}, {}))["hello"]["modules"] == nlohmann::json::array());
  const std::string lines = "{\"frame\":5,\"event\":\"enter\"}\n";
  const auto frame = nlohmann::json::parse(game::frame_message(5, lines));
  CHECK(frame == nlohmann::json{{"frame", 5}, {"trace", lines}});
}

TEST_CASE("live: a held actor skips its ticks while the others tick on") {
  // 100 guards: the player starts far from actors 1 and 2, who walk their patrol.
  game::Game world({.file = test::examples_dir() / "patrol.root.ainb", .actors = 100});
  for (int f = 0; f < 10; ++f)
    world.frame();
  const float walked = world.actors()[1].walked;
  const float others = world.actors()[2].walked;
  world.hold(1, true);
  for (int f = 0; f < 30; ++f)
    world.frame();
  CHECK(world.actors()[1].walked == walked);
  CHECK(world.actors()[2].walked > others);
  world.hold(1, false);
  world.frame();
  CHECK(world.actors()[1].walked > walked);
}

TEST_CASE("live: the hello carries the module files the actor's graph loaded") {
  // The bundled example calls no module.
  game::Game patrol({.file = test::examples_dir() / "patrol.root.ainb", .actors = 1});
  CHECK(game::module_files(patrol.graph()).empty());

  // A real file calling a module found beside it: the module is sent named as its trace events
  // name it, with the bytes of the file on disk.
  const auto corpus = test::corpus_dir();
  if (corpus.empty()) return;
  const auto folder = corpus / "wide/ainb";
  game::Game sandworm({.file = folder / "Sandworm_Eat.actionseq.root.ainb", .actors = 1});
  const auto modules = game::module_files(sandworm.graph());
  REQUIRE(modules.size() == 1);
  CHECK(modules[0].name == "BossCommon.ChanceTimeUpdate.module.ainb");
  const auto disk = test::read_file(folder / "BossCommon.ChanceTimeUpdate.module.ainb");
  CHECK(modules[0].bytes == std::string(disk.begin(), disk.end()));
  const auto hello = nlohmann::json::parse(
      game::hello_message(0, {"Sandworm_Eat.actionseq.root.ainb", "x"}, modules));
  CHECK(hello["hello"]["modules"] ==
        nlohmann::json::array({{{"file", "BossCommon.ChanceTimeUpdate.module.ainb"},
                                {"bytes", game::base64(modules[0].bytes)}}}));
}
