# The page (build/wasm/web/ainb.html) in a real browser: Debian's headless Chromium, driven through
# WebDriver (Debian's chromium-driver and python3-selenium) as a person would, or opened with
# --dump-dom for the URL mode; its results are compared with the native `ainb`'s.
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests/support"))
import headless_chromium  # noqa: E402
from ainb_pytest import corpus_path, required  # noqa: E402

WEB = pathlib.Path(os.environ.get("AINB_WEB_DIR", ROOT / "build/wasm/web"))
NATIVE = pathlib.Path(os.environ.get("AINB_NATIVE", ROOT / "build/release/hosts/cli/ainb"))


@pytest.fixture(scope="session")
def page() -> pathlib.Path:
    path = WEB / "ainb.html"
    if not path.exists():
        required(f"{path} missing: build the wasm preset (scripts/build.sh wasm)")
    return path


@pytest.fixture(scope="session")
def corpus() -> pathlib.Path:
    """Absolute: the tests make file:// URLs of its files."""
    path = corpus_path().resolve()
    if not (path / "ainb").is_dir():
        required(f"corpus missing at {path}")
    return path


@pytest.fixture(scope="session")
def native():
    """native(args..., cwd=...) -> CompletedProcess of the native `ainb`."""
    if not NATIVE.exists():
        required(f"{NATIVE} missing: build the release preset")

    def run(*args, cwd=None):
        return subprocess.run([str(NATIVE), *map(str, args)], capture_output=True, text=True, cwd=cwd)

    return run


@pytest.fixture(scope="session")
def chromium() -> str:
    path = headless_chromium.executable()
    if not path:
        required("chromium missing (scripts/install-deps.sh wasm installs it)")
    return path


@pytest.fixture(scope="session")
def dump_dom(chromium):
    """dump_dom(url) -> the DOM headless Chromium prints once the page has loaded."""
    return lambda url: headless_chromium.dump_dom(url, chromium).stdout


@pytest.fixture(scope="session")
def downloads(tmp_path_factory) -> pathlib.Path:
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="session")
def browser(chromium, downloads):
    """A WebDriver session on headless Chromium, shared by the tests (each opens the page anew)."""
    try:
        driver = headless_chromium.webdriver_session(chromium, downloads=downloads)
    except ImportError:
        required("python3-selenium missing (scripts/install-deps.sh wasm installs it)")
    except FileNotFoundError as missing:
        required(str(missing))
    yield driver
    driver.quit()
