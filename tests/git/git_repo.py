# The git tests' shared set-up: git run in a repository, and a new one in a temporary folder.
import shutil
import subprocess

from ainb_pytest import required


def git(repo, *args) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


def new_repository(path):
    """An empty repository at `path` with a committer of its own (no signing asked of it)."""
    if not shutil.which("git"):
        required("git missing (scripts/install-deps.sh installs it)")
    path.mkdir(parents=True)
    git(path, "init", "-q")
    for key, value in (("user.name", "Modder"), ("user.email", "modder@example.org"), ("commit.gpgsign", "false")):
        git(path, "config", key, value)
    return path
