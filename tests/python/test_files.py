# Files through `import ainb`: every real file loads with the counts `ainb info` prints, comes back
# byte for byte through the writer and the text form, and bad input gives the command line's
# messages as Python exceptions.
import json
import re

import pytest

import ainb
from conftest import corpus_ainb_files

REAL_FILES = corpus_ainb_files()


def test_the_corpus_is_there(corpus):
    assert len(REAL_FILES) == 121


def cli_sections(cli, path, *options):
    """The `sections:` block of `ainb info`, as {section: count}."""
    code, out, err = cli("info", path, *options)
    assert code == 0, err
    block = out.split("sections:\n", 1)[1].split("\n\n", 1)[0]
    sections = {}
    for line in block.splitlines():
        match = re.match(r"^  (.+?) +(\d+)( \(.*\))?$", line)
        assert match, line
        sections[match.group(1)] = int(match.group(2))
    return sections


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: p.name)
def test_every_real_file_loads_with_the_counts_ainb_info_prints(path, cli):
    f = ainb.load(path)
    info = f.info()
    assert info["sections"] == cli_sections(cli, path)
    assert info["file"] == str(path)
    assert info["size"] == path.stat().st_size
    assert len(f.nodes) == info["sections"]["nodes"]
    assert len(f.commands) == info["sections"]["commands"]
    assert len(f.blackboard) == info["sections"]["blackboard entries"]
    assert sum(info["node_types"].values()) == info["sections"]["nodes"]


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: p.name)
def test_every_real_file_comes_back_byte_for_byte(path):
    f = ainb.load(path)
    original = path.read_bytes()
    assert f.bytes() == original
    assert f.write() == original
    # Through the dict, printed and parsed as JSON text in between (what an editor saves).
    text = json.loads(json.dumps(f.to_dict()))
    again = ainb.from_dict(text, name=path.name)
    assert again.write() == original
    assert again.to_dict() == f.to_dict()


def test_a_file_from_bytes_and_its_views(corpus):
    data = (corpus / "ainb/Accessory_Battery_Event.event.root.ainb").read_bytes()
    f = ainb.load(data, "battery.ainb")
    assert f.name == "battery.ainb"
    assert f.path is None
    assert f.version == 0x407
    assert f.commands[0] == ainb.Command(
        name="EventTriggerBatteryRequestIncreaseAnm",
        root=0,
        guid="7d12b559-ad40-4024-a2d2-ef14f59158b1",
    )
    node = f.nodes[1]
    assert (node.index, node.type, node.name) == (1, "UserDefined", "OneShotBatteryRequestIncreaseAnm")
    assert node.guid == "4fbe1c45-4fea-4b91-975b-aa3a0fef33b6"
    assert node.properties == {"bool": [{"name": "ExecuteEveryFrame", "value": False}]}
    assert f.blackboard[0] == ainb.BlackboardEntry(
        type="bool", name="IsVissbleOff", default=False, inherit="dont_inherit"
    )
    # The views are copies: changing one changes neither the file nor the next view.
    node.properties["bool"][0]["value"] = True
    assert f.nodes[1].properties["bool"][0]["value"] is False
    assert repr(f) == "<ainb.File 'battery.ainb': 338 nodes, 61 commands>"


def test_the_tutorials_edit_of_a_threshold(corpus, tmp_path, cli):
    f = ainb.load(corpus / "ainb/Horablin_Escape.actionseq.root.ainb")
    assert f.info()["sections"]["nodes"] == 81
    assert f.info()["user_functions"] == ["Actor.Pos( Vector3F )"]
    assert [c.name for c in f.commands] == ["Root"]
    assert f.nodes[2].name == "_LocalModule_f2df01ee92d3.module"
    assert f.nodes[2].properties["float"] == [{"name": "EscapeCheckDist", "value": 15.0}]
    assert [e.name for e in f.blackboard if e.type == "f32"][:2] == ["TerrorLostTimer", "WaitRestTime"]
    text = f.to_dict()
    text["nodes"][2]["properties"]["float"][0]["value"] = 10.0
    edited = ainb.from_dict(text)
    assert edited.nodes[2].properties["float"][0]["value"] == 10.0
    out = tmp_path / "Horablin_Escape.actionseq.root.ainb"
    edited.save(out)
    assert ainb.load(out).to_dict()["nodes"][2] == text["nodes"][2]
    assert out.read_bytes() != f.bytes()
    code, stdout, _ = cli("convert", "--check", out)
    assert code == 0 and "byte-exact round trip" in stdout


def test_a_missing_file_is_a_load_error_with_the_command_lines_message(tmp_path, cli):
    missing = tmp_path / "nothing.ainb"
    with pytest.raises(ainb.LoadError) as caught:
        ainb.load(missing)
    code, _, err = cli("info", missing)
    assert code == 1
    assert err == f"error: {caught.value}\n"
    assert caught.value.file == str(missing)
    assert caught.value.section == "file"
    assert caught.value.offset == 0
    assert str(caught.value).startswith(f"{missing}: file at offset 0x0: cannot read file")
    assert isinstance(caught.value, ValueError)


def test_a_damaged_file_names_section_and_offset(corpus, cli, tmp_path):
    data = bytearray((corpus / "ainb/Toby.utility.root.ainb").read_bytes())
    cut = bytes(data[:0x40])
    with pytest.raises(ainb.LoadError) as caught:
        ainb.load(cut, "cut.ainb")
    path = tmp_path / "cut.ainb"
    path.write_bytes(cut)
    code, _, err = cli("info", path)
    assert code == 1
    assert err == f"error: {str(caught.value).replace('cut.ainb', str(path), 1)}\n"
    assert caught.value.file == "cut.ainb"
    assert caught.value.reason in str(caught.value)


def test_a_bad_text_form_names_the_json_pointer(corpus):
    text = ainb.load(corpus / "ainb/Accessory_Battery_Event.event.root.ainb").to_dict()
    text["nodes"][1]["propertes"] = text["nodes"][1].pop("properties")
    with pytest.raises(ainb.TextFormError) as caught:
        ainb.from_dict(text)
    assert str(caught.value) == '/nodes/1: unknown field "propertes"'
    assert caught.value.path == "/nodes/1"
    text = ainb.load(corpus / "ainb/Accessory_Battery_Event.event.root.ainb").to_dict()
    text["commands"][0]["root"] = 9999
    with pytest.raises(ainb.TextFormError) as caught:
        ainb.from_dict(text)
    assert str(caught.value) == "/commands/0/root: index 9999 out of range (file has 338 nodes)"
    assert caught.value.path == "/commands/0/root"


def test_wrong_argument_types_are_type_errors():
    with pytest.raises(TypeError):
        ainb.load(42)
    with pytest.raises(TypeError):
        ainb.load("x.ainb", "a name")  # a path names itself


def test_a_pack_and_its_members(corpus, cli):
    pack_path = corpus / "packs/Npc_TripMaster_02.pack.zs"
    pack = ainb.open_pack(pack_path, zsdic=corpus / "zsdic")
    assert "AI/NpcTripMaster.utility.root.ainb" in pack.members
    f = pack.load("AI/NpcTripMaster.utility.root.ainb")
    assert f.name == f"{pack_path}:AI/NpcTripMaster.utility.root.ainb"
    assert f.write() == pack.read("AI/NpcTripMaster.utility.root.ainb")
    # The same file named as PACK:MEMBER, as the command line takes it.
    spec = f"{pack_path}:AI/NpcTripMaster.utility.root.ainb"
    g = ainb.load(spec, zsdic=corpus / "zsdic")
    assert g.path == spec
    assert g.info()["sections"] == cli_sections(cli, spec, "--zsdic", corpus / "zsdic")
    with pytest.raises(ainb.LoadError, match="the pack has no file AI/Nothing.ainb"):
        pack.read("AI/Nothing.ainb")
    with pytest.raises(ainb.LoadError, match="which is not loaded"):
        ainb.open_pack(pack_path)  # without the dictionaries
