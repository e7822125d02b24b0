# `ainb review REV REV` (docs/review.md): two commits of a real repository compared file by file,
# a revision that does not exist (exit 2, named), and a folder that wins over a revision of the
# same name.
import json
import os
import shutil
import subprocess

import pytest
from git_repo import git, new_repository

EDITED = "PlayerCamera.root.ainb"
REMOVED = "Accessory_Battery.root.ainb"
ADDED = "EnemyBase_FrozenInIce.actionseq.root.ainb"


def review(repo, *args):
    done = subprocess.run([os.environ["AINB_CLI"], "review", *map(str, args)], capture_output=True, text=True, cwd=repo)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def repo(tmp_path, corpus, cli):
    """Two commits: the game's files, then one edited through the text form (GameCameraType
    0 -> 3), one removed and one added, in a subfolder as a mod keeps them."""
    repo = new_repository(tmp_path / "mod")
    (repo / "AI").mkdir()
    for name in (EDITED, REMOVED):
        shutil.copy(corpus / "ainb" / name, repo / "AI" / name)
    (repo / "README.md").write_text("a mod\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "the game's files")
    text = tmp_path / "edit.json"
    assert cli("convert", repo / "AI" / EDITED, text)[0] == 0
    form = json.loads(text.read_text())
    form["nodes"][0]["inputs"]["int"][0]["default"] = 3
    text.write_text(json.dumps(form, indent=2))
    assert cli("convert", text, repo / "AI" / EDITED)[0] == 0
    git(repo, "rm", "-q", f"AI/{REMOVED}")
    shutil.copy(corpus / "ainb" / ADDED, repo / "AI" / ADDED)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "another camera type")
    return repo


def test_two_commits(repo):
    code, out, err = review(repo, "HEAD~1", "HEAD", "--explore", "20")
    assert err == ""
    assert code == 1  # a file added and one removed are differences
    lines = out.splitlines()
    assert lines[0] == "## ainb review: HEAD~1 → HEAD"
    assert lines[2] == "1 AI file(s) changed, 1 added, 1 removed, 0 unchanged."
    rows = [line for line in lines if line.startswith("| `")]
    assert rows[0] == f"| `AI/{REMOVED}` | removed | removed |  |"
    assert rows[1] == f"| `AI/{ADDED}` | added | added |  |"
    assert rows[2].startswith(f"| `AI/{EDITED}` | changed | ")
    assert rows[2].endswith(" | 1 |")
    assert f"<details><summary>AI/{EDITED} — " in out
    assert "  input GameCameraType: 0 -> 3" in lines
    # No temporary folder's path leaks into the review.
    assert "ainb-review-" not in out


def test_the_same_revision_twice(repo):
    code, out, err = review(repo, "HEAD", "HEAD")
    assert (code, err) == (0, "")
    assert out.splitlines()[2] == "0 AI file(s) changed, 0 added, 0 removed, 2 unchanged."


def test_a_revision_that_does_not_exist(repo):
    code, out, err = review(repo, "HEAD", "no-such-branch")
    assert (code, out) == (2, "")
    assert err == "error: no-such-branch: no such folder, pack or git revision (of the repository of the current folder)\n"


def test_a_folder_wins_over_a_revision_of_its_name(repo):
    # A folder named HEAD~1 with the edited file only: HEAD's other file counts as added.
    folder = repo / "HEAD~1"
    folder.mkdir()
    shutil.copy(repo / "AI" / EDITED, folder / EDITED)
    code, out, _ = review(repo, "HEAD~1", repo / "HEAD~1")
    assert code == 0
    assert out.splitlines()[2] == "0 AI file(s) changed, 0 added, 0 removed, 1 unchanged."
