# `*.ainb diff=ainb` and diff.ainb.textconv = `ainb convert --stdout` (docs/git.md): git diff, git
# log -p and git show print the text form's changes of a real file edited as a modder would
# (through the text form), where git alone says "Binary files differ".
import json
import os
import shlex
import shutil
import subprocess

import pytest
from git_repo import git, new_repository

NAME = "PlayerCamera.root.ainb"


@pytest.fixture
def repo(tmp_path, corpus, cli):
    """A repository with two commits: the real file, then its GameCameraType default 0 -> 3."""
    repo = new_repository(tmp_path / "mod")
    shutil.copy(corpus / "ainb" / NAME, repo / NAME)
    git(repo, "add", NAME)
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


def use_textconv(repo):
    (repo / ".gitattributes").write_text("*.ainb diff=ainb\n")
    git(repo, "config", "diff.ainb.textconv", f"{shlex.quote(os.environ['AINB_CLI'])} convert --stdout")


HUNK = ['             "name": "GameCameraType",', '-            "default": 0,', '+            "default": 3,',
        '             "flags": "0x800000"']


def changed_lines(diff: str) -> list:
    """The lines a diff takes out and puts in, without its file headers."""
    return [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")]


def hunk_lines(output: str) -> list:
    lines = output.splitlines()
    start = lines.index(HUNK[0])
    return lines[start:start + len(HUNK)]


def test_without_the_converter_git_says_binary_files_differ(repo):
    assert f"Binary files a/{NAME} and b/{NAME} differ" in git(repo, "diff", "HEAD~1", "HEAD")


def test_git_diff_log_and_show_print_the_text_forms_change(repo):
    use_textconv(repo)
    diff = git(repo, "diff", "HEAD~1", "HEAD")
    assert diff.startswith(f"diff --git a/{NAME} b/{NAME}\n")
    assert "Binary files" not in diff
    assert hunk_lines(diff) == HUNK
    # The one value changed: one line out, one in.
    assert changed_lines(diff) == HUNK[1:3]
    assert hunk_lines(git(repo, "log", "-p", "-1")) == HUNK
    assert hunk_lines(git(repo, "show", "HEAD")) == HUNK
    # An uncommitted edit in the working tree too.
    text = repo.parent / "again.json"
    subprocess.run([os.environ["AINB_CLI"], "convert", repo / NAME, text], check=True)
    text.write_text(text.read_text().replace('"default": 3,', '"default": 5,', 1))
    subprocess.run([os.environ["AINB_CLI"], "convert", text, repo / NAME], check=True)
    assert changed_lines(git(repo, "diff")) == ['-            "default": 3,', '+            "default": 5,']
