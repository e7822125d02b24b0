# examples/mod-ci (a mod's CI and pre-commit hook around `ainb review`): the files are copied into
# a real repository in a temporary folder, and the workflow's review step and the hook's command,
# read from their YAML, are run there as GitHub Actions and pre-commit run them, so what the
# workflow does is tested here even though it runs elsewhere.
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess

import pytest
from ainb_pytest import required
from git_repo import git, new_repository

try:
    import yaml  # python3-yaml (scripts/install-deps.sh tests): the workflow's steps are read, then run
except ImportError:
    yaml = None

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "mod-ci"
WORKFLOW = ".github/workflows/ainb-review.yml"
HOOKS = ".pre-commit-config.yaml"
SCRIPT = "scripts/ainb-review.sh"
EDITED = "AI/UnderWaterFloatWait.actionseq.root.ainb"
PAGE = "files/AI_UnderWaterFloatWait.actionseq.root.ainb.html"
# Its SelectorMathLessOrEqualF32 constant 3 -> 20: --generic-nodes runs the selector, and explore
# finds a water depth between the two that takes the other child (docs/review.md).
ENTERED = {3.0: "#4 ExecuteGenericSetResultNone", 20.0: "#5 ExecuteGenericSetResultSuccess"}


def differs(before: float, after: float) -> str:
    """The summary's row of the file when its threshold went from BEFORE to AFTER."""
    return (
        f"| `{EDITED}` | changed | differs at frame 1: a different node was entered: {ENTERED[before]} in the "
        f"original, {ENTERED[after]} in the edited file (a different child was chosen or linked) | 1 |"
    )

NOT_FAILING = "ainb-review: AI files behave differently (reported, not failing: --fail-on-different makes it fail)"


def set_threshold(cli, file: pathlib.Path, value: float, work: pathlib.Path):
    """Edits the file as a modder would: text form, one value, back to AINB."""
    text = work / "edit.json"
    assert cli("convert", file, text)[0] == 0
    form = json.loads(text.read_text())
    node = form["nodes"][1]
    assert node["name"] == "SelectorMathLessOrEqualF32"
    node["inputs"]["float"][0]["default"] = value
    text.write_text(json.dumps(form, indent=2))
    assert cli("convert", text, file)[0] == 0


@pytest.fixture
def env(tmp_path):
    """The environment of a run: the built program as $AINB, a step summary file, and a global git
    configuration of the test's own (the workflow's step adds a safe.directory to it)."""
    summary = tmp_path / "step-summary.md"
    summary.write_text("")
    return dict(
        os.environ,
        AINB=os.environ["AINB_CLI"],
        GITHUB_STEP_SUMMARY=str(summary),
        GIT_CONFIG_GLOBAL=str(tmp_path / "gitconfig"),
    )


@pytest.fixture
def repo(tmp_path, corpus, cli):
    """A mod with the example's files in place and two commits: the game's file, then its
    threshold edited 3 -> 20."""
    repo = new_repository(tmp_path / "mod")
    (repo / "AI").mkdir()
    for name in (WORKFLOW, HOOKS, SCRIPT):
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(EXAMPLE / name, repo / name)  # keeps the script's executable bit
    shutil.copy(corpus / "wide" / "ainb" / pathlib.Path(EDITED).name, repo / EDITED)
    (repo / "README.md").write_text("a mod\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "the game's file")
    set_threshold(cli, repo / EDITED, 20.0, tmp_path)
    git(repo, "commit", "-q", "-a", "-m", "a deeper threshold")
    return repo


@pytest.fixture(autouse=True)
def yaml_reader():
    if yaml is None:
        required("python3-yaml missing (scripts/install-deps.sh tests installs it)")


def review_step():
    steps = yaml.safe_load((EXAMPLE / WORKFLOW).read_text())["jobs"]["review"]["steps"]
    (step,) = [step for step in steps if SCRIPT in step.get("run", "")]
    return step


def run_review_step(repo, env, base_sha, head_sha):
    """The workflow's review step as the runner runs it (its `run:` under `bash --noprofile --norc
    -eo pipefail`, its env), the pull request's base and head commits in place of the expressions."""
    step = review_step()
    values = {
        "${{ github.event.pull_request.base.sha }}": base_sha,
        "${{ github.event.pull_request.head.sha }}": head_sha,
    }
    step_env = {name: values.get(value, value) for name, value in step["env"].items()}
    assert not [value for value in step_env.values() if "${{" in value]
    step_env["AINB"] = env["AINB"]  # the program this build made, not the workflow's own build
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=repo, env={**env, **step_env}, capture_output=True, text=True,
    )
    return done.returncode, done.stdout, done.stderr


def run_hook(repo, env):
    """The hook's command as pre-commit runs a `language: system` hook with pass_filenames false:
    its entry and args, from the repository's root."""
    (hook,) = yaml.safe_load((repo / HOOKS).read_text())["repos"][0]["hooks"]
    command = shlex.split(hook["entry"]) + hook["args"]
    done = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def test_the_workflow_reviews_a_pull_request(repo, env):
    base, head = git(repo, "rev-parse", "HEAD~1", "HEAD").split()
    code, out, err = run_review_step(repo, env, base, head)
    # Behaving differently is reported, not failed: the mod's edit is meant to change behaviour.
    assert code == 0, err
    assert err.splitlines() == [
        "ainb-review: the review is in ainb-review (open ainb-review/index.html)",
        NOT_FAILING,
    ]
    summary = (repo / "ainb-review" / "summary.md").read_text()
    assert out == summary
    assert pathlib.Path(env["GITHUB_STEP_SUMMARY"]).read_text() == summary
    lines = summary.splitlines()
    # The merge-base of base and head is the base commit here: the pull request's own commits.
    assert lines[0] == f"## ainb review: {base} → {head}"
    assert lines[2] == "1 AI file(s) changed, 0 added, 0 removed, 0 unchanged."
    assert [line for line in lines if line.startswith("| `")] == [differs(3.0, 20.0)]
    assert "  input F32: 3 -> 20" in lines
    # The artifact's pages: the index links the file's page, which is there.
    index = (repo / "ainb-review" / "index.html").read_text()
    assert f'href="{PAGE}"' in index
    assert (repo / "ainb-review" / PAGE).is_file()


def test_the_script_fails_on_a_difference_when_asked_and_always_on_an_error(repo, env):
    script = repo / SCRIPT
    done = subprocess.run([script, "--fail-on-different", "HEAD~1", "HEAD", "--generic-nodes"],
                          cwd=repo, env=env, capture_output=True, text=True)
    assert done.returncode == 1
    assert [line for line in done.stdout.splitlines() if line.startswith("| `")] == [differs(3.0, 20.0)]
    assert NOT_FAILING not in done.stderr
    # A revision that does not exist: review's error and exit 2, and no earlier summary printed
    # (the one above is in the same default folder, .git/ainb-review).
    assert (repo / ".git" / "ainb-review" / "summary.md").is_file()
    done = subprocess.run([script, "HEAD", "no-such-branch"], cwd=repo, env=env, capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "error: no-such-branch: no such folder, pack or git revision (of the repository of the current folder)\n"
    )
    assert not (repo / ".git" / "ainb-review" / "summary.md").exists()
    # No program: said, exit 2.
    done = subprocess.run([script, "HEAD~1", "HEAD"], cwd=repo, env={**env, "AINB": "/no/such/ainb"},
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "ainb-review: '/no/such/ainb' not found (set AINB to the program's path or put ainb on PATH)\n"
    )


def test_a_range_with_no_ai_change(repo, env):
    (repo / "README.md").write_text("a mod, with a readme\n")
    git(repo, "commit", "-q", "-a", "-m", "words")
    base, head = git(repo, "rev-parse", "HEAD~1", "HEAD").split()
    code, out, err = run_review_step(repo, env, base, head)
    assert code == 0, err
    # No file listed: no table.
    assert out.splitlines() == [
        f"## ainb review: {base} → {head}",
        "",
        "0 AI file(s) changed, 0 added, 0 removed, 1 unchanged.",
    ]
    assert pathlib.Path(env["GITHUB_STEP_SUMMARY"]).read_text() == out
    assert (repo / "ainb-review" / "index.html").is_file()
    assert not (repo / "ainb-review" / "files").exists()  # no file ran: no page


def test_the_hook_reviews_the_staged_files_against_head(repo, env, cli, corpus, tmp_path):
    # Staged: the threshold back to 3 (HEAD has 20). In the work tree only, as pre-commit leaves
    # them: an untracked AI file, and the staged file cut short; neither is in the commit.
    set_threshold(cli, repo / EDITED, 3.0, tmp_path)
    git(repo, "add", EDITED)
    shutil.copy(corpus / "ainb" / "Accessory_Battery.root.ainb", repo / "AI" / "untracked.ainb")
    data = (repo / EDITED).read_bytes()
    (repo / EDITED).write_bytes(data[:1000])
    status = git(repo, "status", "--porcelain")
    code, out, err = run_hook(repo, env)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "## ainb review: HEAD → .git/ainb-staged"
    assert lines[2] == "1 AI file(s) changed, 0 added, 0 removed, 0 unchanged."
    assert [line for line in lines if line.startswith("| `")] == [differs(20.0, 3.0)]
    assert "  input F32: 20 -> 3" in lines
    assert err.splitlines() == [
        "ainb-review: the review is in .git/ainb-review (open .git/ainb-review/index.html)",
        NOT_FAILING,
    ]
    assert f'href="{PAGE}"' in (repo / ".git" / "ainb-review" / "index.html").read_text()
    # The staged copy is gone, and the work tree and index are as they were.
    assert not (repo / ".git" / "ainb-staged").exists()
    assert git(repo, "status", "--porcelain") == status
    assert (repo / EDITED).read_bytes() == data[:1000]


def test_the_hook_on_a_first_commit(tmp_path, env, corpus):
    # No HEAD yet: every staged AI file is added (a difference, reported).
    repo = new_repository(tmp_path / "new")
    shutil.copy2(EXAMPLE / HOOKS, repo / HOOKS)
    (repo / "scripts").mkdir()
    shutil.copy2(EXAMPLE / SCRIPT, repo / SCRIPT)
    shutil.copy(corpus / "ainb" / "Accessory_Battery.root.ainb", repo / "Accessory_Battery.root.ainb")
    git(repo, "add", ".")
    code, out, err = run_hook(repo, env)
    assert code == 0, err
    assert out.splitlines()[:7] == [
        "## ainb review: .git/ainb-empty → .git/ainb-staged",
        "",
        "0 AI file(s) changed, 1 added, 0 removed, 0 unchanged.",
        "",
        "| file | change | verdict | edits |",
        "|---|---|---|---|",
        "| `Accessory_Battery.root.ainb` | added | added |  |",
    ]


def test_the_yaml_calls_the_script_as_tested_here():
    workflow = yaml.safe_load((EXAMPLE / WORKFLOW).read_text())
    # YAML 1.1 reads the key `on` as True.
    assert list(workflow[True]) == ["pull_request"]
    steps = workflow["jobs"]["review"]["steps"]
    checkouts = [step for step in steps if step.get("uses") == "actions/checkout@v4"]
    checkout = [step for step in checkouts if "repository" not in step["with"]]
    assert checkout[0]["with"]["fetch-depth"] == 0  # both revisions in the clone
    step = review_step()
    assert step["env"]["BASE_SHA"] == "${{ github.event.pull_request.base.sha }}"
    assert step["env"]["HEAD_SHA"] == "${{ github.event.pull_request.head.sha }}"
    # The review's folder is what the artifact uploads and the comment posts.
    out = re.search(r"--out (\S+)", step["run"]).group(1)
    (upload,) = [s for s in steps if s.get("uses") == "actions/upload-artifact@v4"]
    assert upload["with"]["path"] == out
    (comment,) = [s for s in steps if "gh pr comment" in s.get("run", "")]
    assert comment["run"].count(f"--body-file {out}/summary.md") == 2
    # The build step makes the program the review step's $AINB names.
    (build,) = [s for s in steps if "--target ainb" in s.get("run", "")]
    assert step["env"]["AINB"] == f"{build['working-directory']}/build/release/hosts/cli/ainb"

    hooks = yaml.safe_load((EXAMPLE / HOOKS).read_text())
    (local,) = hooks["repos"]
    (hook,) = local["hooks"]
    assert (local["repo"], hook["language"], hook["pass_filenames"]) == ("local", "system", False)
    assert shlex.split(hook["entry"]) == [SCRIPT, "--staged"]
    assert re.search(hook["files"], EDITED) and not re.search(hook["files"], "README.md")
    # The script is executable in this repository (pre-commit and the workflow run it directly).
    assert os.access(EXAMPLE / SCRIPT, os.X_OK)
