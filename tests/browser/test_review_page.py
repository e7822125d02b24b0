# ainb review -o DIR (docs/review.md): index.html (the report component's review page) lists the files
# and verdicts, each changed file linked to its page beside it (regress's page of the difference
# found or the exploration's coverage) and its diff and first difference folded below; opened in
# headless Chromium.
import html
import json
import re
import shutil

import headless_chromium

DIFFERS = "UnderWaterFloatWait.actionseq.root.ainb"
SAME = "PlayerCamera.root.ainb"


def edit(cli, original, to, change):
    text = to.with_suffix(".json")
    assert cli("convert", original, text)[0] == 0
    form = json.loads(text.read_text())
    change(form)
    text.write_text(json.dumps(form, indent=2))
    assert cli("convert", text, to)[0] == 0
    text.unlink()


def set_depth_threshold(form):
    assert form["nodes"][1]["name"] == "SelectorMathLessOrEqualF32"
    form["nodes"][1]["inputs"]["float"][0]["default"] = 20.0


def set_camera_type(form):
    form["nodes"][0]["inputs"]["int"][0]["default"] = 3


def test_the_index_links_each_changed_file_to_its_page(cli, corpus, chromium, browse, tmp_path):
    base, head, out = tmp_path / "base", tmp_path / "head", tmp_path / "out"
    base.mkdir()
    head.mkdir()
    shutil.copy(corpus / "wide/ainb" / DIFFERS, base / DIFFERS)
    shutil.copy(corpus / "ainb" / SAME, base / SAME)
    shutil.copy(corpus / "ainb/Accessory_Battery.root.ainb", head)
    edit(cli, base / DIFFERS, head / DIFFERS, set_depth_threshold)
    edit(cli, base / SAME, head / SAME, set_camera_type)
    code, stdout, err = cli("review", base, head, "--generic-nodes", "--stub-missing-modules", "-o", out)
    assert code == 1, err
    assert stdout == f"written {out / 'summary.md'} and {out / 'index.html'}\n"

    done = headless_chromium.dump_dom((out / "index.html").as_uri(), chromium)
    rows = re.findall(r'<tr class="(\w+)"><td class="file">(.*?)</td><td>(\w+)</td><td class="verdict">(.*?)</td>',
                      done.stdout)
    assert [(cls, re.sub("<[^>]+>", "", name), change) for cls, name, change, _ in rows] == [
        ("different", "Accessory_Battery.root.ainb", "added"),
        ("same", SAME, "changed"),
        ("different", DIFFERS, "changed"),
    ]
    assert html.unescape(rows[2][3]).startswith("differs at frame 1: a different node was entered")
    links = re.findall(r'<td class="file"><a href="([^"]+)">', done.stdout)
    assert links == [f"files/{SAME}.html", f"files/{DIFFERS}.html"]
    # Each changed file's diff and first difference, folded below the table, linked from its row.
    assert re.findall(r'<a href="(#file-\d+)">below</a>', done.stdout) == ["#file-1", "#file-2"]
    # Open where the behaviour differs, folded where it is the same.
    folded = re.findall(r'<details id="(file-\d+)" class="\w+"( open="")?><summary><code>([^<]+)</code>', done.stdout)
    assert folded == [("file-1", "", SAME), ("file-2", ' open=""', DIFFERS)]
    diffs = [html.unescape(d) for d in re.findall(r'<pre class="diff">(.*?)</pre>', done.stdout, re.S)]
    assert diffs[1] == ("node #1 SelectorMathLessOrEqualF32 (guid 471f5068-9bbe-448e-bc76-457495e12189)\n"
                        "  input F32: 3 -> 20\n")
    verdicts = [html.unescape(d) for d in re.findall(r'<pre class="regress">(.*?)</pre>', done.stdout, re.S)]
    assert verdicts[0] == "no difference in 200 runs\n"
    assert verdicts[1].startswith("different: scenario explore run ")
    assert re.findall(r'<ul class="unmodelled">\n<li>(.*?)</li>', done.stdout) == [
        "node #0 OneShotCameraRegisterOwnInSystem: runs as a stub (its class is not modelled)"]

    same, differs = browse([out / links[0], out / links[1]])
    # The exploration's coverage: no time on that page.
    assert same[0]["errors"] == ""
    assert same[0]["label"] == ""
    # Regress's page of the shrunk scenario, opened at its difference, marked on both graphs.
    assert differs[0]["errors"] == ""
    assert sorted(differs[0]["marks"]) == ["a0n4", "b0n5"]
    assert "first difference" in differs[0]["summary"]
