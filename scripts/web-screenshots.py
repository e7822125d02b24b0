#!/usr/bin/env python3
"""Writes the screenshots of the WebAssembly page in docs/images/ (docs/web.md): a real file and its
module run by URL, an exploration with its progress bar, the debugger stopped at a link's
breakpoint, a what-if branch beside its parent run, and a live actor of ainb-game paused with its report
page, photographed by headless Chromium through WebDriver. Needs the wasm preset and the release preset's
ainb-game built.
    scripts/web-screenshots.py [CORPUS]   (default ../shared/corpus)"""
import json
import pathlib
import subprocess
import sys
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests/support"))
import headless_chromium  # noqa: E402

corpus = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT.parent / "shared/corpus").resolve()
page = ROOT / "build/wasm/web/ainb.html"
driver = headless_chromium.webdriver_session(extra_flags=("--hide-scrollbars",))
count = lambda key: int(driver.execute_script(f"return document.body.dataset.{key} || 0"))  # noqa: E731
try:
    files = [corpus / "ainb/Toby.utility.root.ainb", corpus / "ainb/_LocalModule_d0e7ebe89ded.module.ainb"]
    opens = "&".join(f"open={f.as_uri()}" for f in files)
    driver.get(f"{page.as_uri()}#{opens}&stub-missing-modules&generic-nodes&restart&frames=600&run")
    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return document.body.dataset.drawnAt"))
    driver.save_screenshot(str(ROOT / "docs/images/web-page.png"))
    # An exploration, caught while its progress bar moves.
    driver.execute_script("document.getElementById('w-runs').value = '100000'")
    driver.find_element(By.ID, "w-explore").click()
    WebDriverWait(driver, 60, poll_frequency=0.01).until(
        lambda d: float(d.find_element(By.ID, "w-progress").get_attribute("value") or 0) > 20000)
    driver.save_screenshot(str(ROOT / "docs/images/web-explore.png"))
    driver.find_element(By.ID, "w-cancel").click()
    # The debugger: a link's breakpoint on a blackboard write, its list and the state at the cursor
    # (a new page: a link that differs only in its fragment would not load again).
    driver.get("about:blank")
    driver.get(f"{page.as_uri()}#{opens}&stub-missing-modules&generic-nodes&frames=600"
               "&break=written:ShouldIssueWarningOfNoSleepPos&break=update:27:Success&run")
    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return document.body.dataset.drawnAt"))
    driver.execute_script("document.getElementById('w-break-box').open = true")
    driver.save_screenshot(str(ROOT / "docs/images/web-debugger.png"))
    # What-if: a link's branch (a stub's output set from frame 4) shown beside its parent run.
    weapon = corpus / "wide/ainb/SoulSageWeapon.root.ainb"
    branch = json.dumps({"name": "#0 Bool = true from frame 4", "from": 1, "intervention": {
        "kind": "outputs", "node": 0, "class": "QueryEquipmentIsOwnerSage", "outputs": {"Bool": True}, "frame": 4}})
    driver.get("about:blank")
    driver.get(f"{page.as_uri()}#open={weapon.as_uri()}&frames=30&restart&branch=" + urllib.parse.quote('{"name": "run 1"}')
               + f"&branch={urllib.parse.quote(branch)}&shown=2&at=4&run")
    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return document.body.dataset.drawnAt"))
    finished = count("finished")
    driver.find_element(By.ID, "w-br-beside").click()
    WebDriverWait(driver, 60).until(lambda d: count("finished") > finished)
    WebDriverWait(driver, 60).until(lambda d: d.execute_script(
        "const v = document.getElementById('w-view'); return v && v.contentDocument.body.dataset.ready"))
    driver.save_screenshot(str(ROOT / "docs/images/web-whatif.png"))
    # Live: ainb-game's actor 0 (a real file calling a module), paused in the page, its report page made.
    game = subprocess.Popen([ROOT / "build/release/hosts/embedding/ainb-game",
                             corpus / "wide/ainb/Sandworm_Eat.actionseq.root.ainb", "--serve", "0", "--actor", "0",
                             "--actors", "50", "--frames", "1000000"], stdout=subprocess.PIPE, text=True)
    try:
        url = game.stdout.readline().split(" on ")[1].strip()
        driver.get("about:blank")
        driver.get(f"{page.as_uri()}#live={url}")
        WebDriverWait(driver, 60).until(lambda d: count("liveFrames") >= 120)
        driver.find_element(By.ID, "w-live-pause").click()
        WebDriverWait(driver, 60).until(lambda d: count("liveReports") >= 1)
        driver.save_screenshot(str(ROOT / "docs/images/web-live.png"))
    finally:
        game.terminate()
        game.wait()
finally:
    driver.quit()
print("docs/images/web-page.png, docs/images/web-explore.png, docs/images/web-debugger.png, docs/images/web-whatif.png, docs/images/web-live.png")
