# The page (build/wasm/web/ainb.html) in a real browser: Debian's headless Chromium, driven through
# WebDriver (Debian's chromium-driver and python3-selenium) as a person would, or opened with
# --dump-dom for the URL mode; its results are compared with the native `ainb`'s.
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WEB = pathlib.Path(os.environ.get("AINB_WEB_DIR", ROOT / "build/wasm/web"))
NATIVE = pathlib.Path(os.environ.get("AINB_NATIVE", ROOT / "build/release/hosts/cli/ainb"))
CORPUS = pathlib.Path(os.environ.get("AINB_CORPUS", ROOT.parent / "shared/corpus"))


def required(what: str):
    """A missing prerequisite fails in CI and skips elsewhere."""
    if os.environ.get("CI"):
        pytest.fail(what)
    pytest.skip(what)


@pytest.fixture(scope="session")
def page() -> pathlib.Path:
    path = WEB / "ainb.html"
    if not path.exists():
        required(f"{path} missing: build the wasm preset (scripts/build.sh wasm)")
    return path


@pytest.fixture(scope="session")
def corpus() -> pathlib.Path:
    if not (CORPUS / "ainb").is_dir():
        required(f"no corpus at {CORPUS}")
    return CORPUS


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
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        required("chromium missing (scripts/install-deps.sh wasm installs it)")
    return path


@pytest.fixture(scope="session")
def dump_dom(chromium, tmp_path_factory):
    """dump_dom(url) -> the DOM headless Chromium prints once the page has loaded."""
    def run(url: str) -> str:
        profile = tmp_path_factory.mktemp("chromium-profile")
        done = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             f"--user-data-dir={profile}", "--allow-file-access-from-files", "--dump-dom", url],
            capture_output=True, text=True, timeout=120)
        return done.stdout

    return run


@pytest.fixture(scope="session")
def downloads(tmp_path_factory) -> pathlib.Path:
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="session")
def browser(chromium, downloads):
    """A WebDriver session on headless Chromium, shared by the tests (each opens the page anew)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        required("python3-selenium missing (scripts/install-deps.sh wasm installs it)")
    driver_path = shutil.which("chromedriver")
    if not driver_path:
        required("chromedriver missing (scripts/install-deps.sh wasm installs Debian's chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--allow-file-access-from-files", "--window-size=1400,1000"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    service = Service(executable_path=driver_path)
    driver = webdriver.Chrome(options=options, service=service)
    yield driver
    driver.quit()
