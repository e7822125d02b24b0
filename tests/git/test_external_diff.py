# `*.ainb diff=ainb` and diff.ainb.command = `ainb diff --git` (docs/diff.md): git diff, git log -p
# --ext-diff and git show --ext-diff print ainb diff's lines for a real file edited as a modder
# would (through the text form), and say which files were added or deleted.
import json
import os
import shlex
import shutil
import subprocess

import pytest
from git_repo import git, new_repository

NAME = "PlayerCamera.root.ainb"
ADDED = "Accessory_Battery.root.ainb"

EDIT = [
    f"diff --ainb a/{NAME} b/{NAME}",
    "node #0 OneShotCameraRegisterOwnInSystem (guid 005f853d-bd0a-446b-b165-e362cf9e1802)",
    "  input GameCameraType: 0 -> 3",
]


@pytest.fixture
def repo(tmp_path, corpus, cli):
    """A repository with the driver set up and two commits: the real file, then its
    GameCameraType default 0 -> 3."""
    repo = new_repository(tmp_path / "mod")
    (repo / ".gitattributes").write_text("*.ainb diff=ainb\n")
    git(repo, "config", "diff.ainb.command", f"{shlex.quote(os.environ['AINB_CLI'])} diff --git")
    shutil.copy(corpus / "ainb" / NAME, repo / NAME)
    git(repo, "add", ".gitattributes", NAME)
    git(repo, "commit", "-q", "-m", "the game's file")
    text = tmp_path / "edit.json"
    assert cli("convert", repo / NAME, text)[0] == 0
    form = json.loads(text.read_text())
    node = form["nodes"][0]
    assert node["inputs"]["int"][0] == {"name": "GameCameraType", "default": 0, "flags": "0x800000"}
    node["inputs"]["int"][0]["default"] = 3
    text.write_text(json.dumps(form, indent=2))
    assert cli("convert", text, repo / NAME)[0] == 0
    git(repo, "commit", "-q", "-a", "-m", "another camera type")
    return repo


def test_git_diff_prints_ainb_diffs_lines(repo):
    # git diff runs a driver's command by itself; log -p and show with --ext-diff.
    assert git(repo, "diff", "HEAD~1", "HEAD").splitlines() == EDIT
    assert git(repo, "diff", "--ext-diff", "HEAD~1", "HEAD").splitlines() == EDIT
    assert git(repo, "log", "-p", "--ext-diff", "-1", "--format=%s").splitlines() == ["another camera type", ""] + EDIT
    assert git(repo, "show", "--ext-diff", "--format=", "HEAD").splitlines() == EDIT
    # Without --ext-diff, log and show keep git's own diff: binary.
    assert f"Binary files a/{NAME} and b/{NAME} differ" in git(repo, "show", "HEAD")
    # --no-ext-diff turns it off for git diff too.
    assert "Binary files" in git(repo, "diff", "--no-ext-diff", "HEAD~1", "HEAD")


def test_an_uncommitted_edit_and_a_file_that_is_the_same(repo, cli):
    text = repo.parent / "again.json"
    assert cli("convert", repo / NAME, text)[0] == 0
    text.write_text(text.read_text().replace('"default": 3,', '"default": 5,', 1))
    assert cli("convert", text, repo / NAME)[0] == 0
    assert git(repo, "diff").splitlines() == [EDIT[0], EDIT[1], "  input GameCameraType: 3 -> 5"]
    # Written back unchanged through the text form: the same bytes, nothing to show.
    git(repo, "checkout", "--", NAME)
    assert cli("convert", repo / NAME, text)[0] == 0
    assert cli("convert", text, repo / NAME)[0] == 0
    assert git(repo, "diff") == ""


def test_a_file_added_and_a_file_deleted(repo, corpus):
    shutil.copy(corpus / "ainb" / ADDED, repo / ADDED)
    git(repo, "add", ADDED)
    assert git(repo, "diff", "--cached").splitlines() == [
        f"diff --ainb a/{ADDED} b/{ADDED}",
        "new file: 1 node, 1 command",
    ]
    git(repo, "commit", "-q", "-m", "a battery")
    git(repo, "rm", "-q", NAME)
    assert git(repo, "diff", "--cached").splitlines() == [
        f"diff --ainb a/{NAME} b/{NAME}",
        "deleted file: 67 nodes, 1 command",
    ]
    assert git(repo, "log", "-p", "--ext-diff", "-1", "--format=%s", "HEAD").splitlines() == [
        "a battery",
        "",
        f"diff --ainb a/{ADDED} b/{ADDED}",
        "new file: 1 node, 1 command",
    ]


def test_a_side_that_does_not_load_stops_git_with_the_error(repo):
    (repo / NAME).write_bytes(b"AINB")
    done = subprocess.run(["git", "-C", str(repo), "diff"], capture_output=True, text=True)
    assert done.returncode != 0
    assert done.stderr.splitlines() == [
        f"error: {NAME}: header at offset 0x0: file is 4 bytes, too small for the 0x74-byte header",
        f"fatal: external diff died, stopping at {NAME}",
    ]
