# Driving the page (build/wasm/web/ainb.html) through WebDriver as a person would, and the native
# CLI's output it is compared with: what tests/web's page tests share.
import pathlib

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

# The message beside an open file's name ("" for none), as the page's scripts below read it.
MESSAGE_OF = """
const messageOf = (name) => {
  const li = Array.from(document.querySelectorAll('#w-files li')).find((l) => l.dataset.name === name);
  return (li.querySelector('.message') || {}).textContent || '';
};
"""


class Page:
    """The page in the WebDriver session, used through its controls."""

    def __init__(self, driver, path: pathlib.Path, fragment: str = ""):
        self.d = driver
        self.d.get(path.as_uri() + fragment)
        self.wait_count("started", 1)

    def count(self, key: str) -> int:
        return int(self.d.execute_script(f"return document.body.dataset.{key} || 0"))

    def wait_count(self, key: str, at_least: int, timeout: float = 120):
        WebDriverWait(self.d, timeout, poll_frequency=0.02).until(lambda _: self.count(key) >= at_least)

    def text(self, element_id: str) -> str:
        return self.d.find_element(By.ID, element_id).get_attribute("textContent")

    def open(self, paths):
        before = self.count("opened")
        self.d.find_element(By.ID, "w-pick").send_keys("\n".join(str(p) for p in paths))
        self.wait_count("opened", before + 1)

    def message(self, name: str) -> str:
        """The message beside one open file's name ("" for none)."""
        return self.d.execute_script(f"{MESSAGE_OF} return messageOf(arguments[0]);", name)

    def messages(self) -> dict:
        """Each open file's name -> the message beside it ("" for none)."""
        rows = self.d.execute_script(
            "return Array.from(document.querySelectorAll('#w-files li'), li => "
            "[li.dataset.name, (li.querySelector('.message') || {}).textContent || ''])")
        return dict(rows)

    def choose(self, file: str, edited: str = ""):
        Select(self.d.find_element(By.ID, "w-file")).select_by_value(file)
        Select(self.d.find_element(By.ID, "w-edited")).select_by_value(edited)

    def set_value(self, element_id: str, value):
        self.d.execute_script(
            "const e = document.getElementById(arguments[0]); e.value = arguments[1];"
            "e.dispatchEvent(new Event('input', {bubbles: true}));", element_id, str(value))

    def click(self, element_id: str, wait: bool = True, timeout: float = 120):
        before = self.count("finished")
        self.d.find_element(By.ID, element_id).click()
        if wait:
            self.wait_count("finished", before + 1, timeout)

    def view(self, script: str):
        """Evaluates `script` (a function body with `d`, the report page's document) in the view."""
        return self.d.execute_script(
            f"const d = document.getElementById('w-view').contentDocument; {script}")


def trace_file(native, folder, name, *flags):
    """The native CLI's JSON-lines trace of a 600-frame run, and its exit code."""
    done = native("run", name, "--frames", "600", *flags, "--trace", "-", "--format", "jsonl", cwd=folder)
    return done.returncode, done.stdout if done.returncode == 0 else "", done.stderr


def shown(done) -> str:
    """What the page's report shows for a command: its output, then its warnings."""
    return "\n".join(part for part in (done.stdout, done.stderr) if part)


def first_error(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line]
    return next((line for line in lines if line.startswith("error")), lines[0] if lines else "")
