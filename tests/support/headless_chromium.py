# Debian's headless Chromium, started the one way the browser tests (tests/browser, tests/web),
# benchmarks/web_page_bench.py and scripts/web-screenshots.py need it: pages from file:// that read
# files beside them. No pytest here: the benchmark and the script import it too.
import pathlib
import shutil
import subprocess
import tempfile

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--allow-file-access-from-files")


def executable() -> str | None:
    """Chromium's path, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def dump_dom(url: str, chromium: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Opens `url` in a fresh profile and prints the DOM once the page has loaded (--dump-dom)."""
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        return subprocess.run([chromium or executable(), *FLAGS, f"--user-data-dir={profile}", "--dump-dom", url],
                              capture_output=True, text=True, timeout=timeout)


def webdriver_session(chromium: str | None = None, window: str = "1400,1000",
                      downloads: pathlib.Path | None = None, extra_flags=()):
    """A WebDriver session (python3-selenium, Debian's chromium-driver). Raises ImportError without
    selenium and FileNotFoundError without chromedriver."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    driver_path = shutil.which("chromedriver")
    if not driver_path:
        raise FileNotFoundError("chromedriver missing (scripts/install-deps.sh wasm installs Debian's chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium or executable()
    # WebDriver's headless mode is the new one; --dump-dom's is the default.
    for flag in ("--headless=new", *FLAGS[1:], f"--window-size={window}", *extra_flags):
        options.add_argument(flag)
    if downloads:
        options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                                  "download.prompt_for_download": False})
    return webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
