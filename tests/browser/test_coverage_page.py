# The page of an exploration (ainb explore --html): what was reached, by what, and why not.
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def explore(cli, tmp_path, file, *options):
    page, out_dir = tmp_path / "coverage.html", tmp_path / "found"
    code, out, err = cli("explore", file, "-o", out_dir, "--html", page, *options)
    assert code == 0, err
    report = json.loads((out_dir / "coverage.json").read_text())
    return page, report


def check_coverage(snap, report):
    assert snap["errors"] == ""
    top = report["files"][0]
    never = {n["node"] for n in top["nodes"]["unreached"]}
    uncovered = {node for node, classes, _ in snap["rows"] if "uncovered" in classes.split()}
    assert uncovered == never
    covered = {node for node, classes, _ in snap["rows"] if {"covered", "found"} & set(classes.split())}
    assert covered | uncovered == {node for node, _, _ in snap["rows"]}
    never_taken = {f'f0b{b["node"]}_{b["plug"]}' for b in top["branches"]["unreached"]}
    marked = {e[0] for e in snap["edges"] if "uncovered" in e[1].split()}
    assert marked == never_taken
    assert snap["label"] == ""  # no time on this page


def test_a_small_file(cli, browse, tmp_path):
    ainb = tmp_path / "seven.root.ainb"
    assert cli("convert", ROOT / "tests/data/explore/seven.root.json", ainb)[0] == 0
    page, report = explore(cli, tmp_path, ainb, "--runs", 200)
    (snap,) = browse(page)
    check_coverage(snap, report)
    assert any("found" in classes.split() for _, classes, _ in snap["rows"])


def test_a_real_file(cli, corpus, browse, tmp_path):
    page, report = explore(cli, tmp_path, corpus / "ainb/Toby.utility.root.ainb",
                           "--stub-missing-modules", "--runs", 300)
    (snap,) = browse(page)
    check_coverage(snap, report)
    # The reasons explore gives are listed, and a node's panel says its own.
    unreached = report["files"][0]["nodes"]["unreached"]
    first = unreached[0]
    assert any(first["why"] in item for item in snap["items"])
    (clicked,) = browse(page, steps=[f"node:{first['node']}", "snap"])
    assert f"never reached: {first['why']}" in clicked["panel"]
