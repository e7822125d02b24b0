# Every real AI file's page: made by `ainb run --html` (with the modules the corpus has), opened in
# headless Chromium, every node drawn and listed (some module files have none), and no script
# error at the start or the end. One browser start opens a batch of pages (each in a frame of
# its own), so the test costs a few browser starts, not one a file.
import concurrent.futures
import re

from conftest import corpus_ainb_files

BATCH = 16


def test_every_real_file_gives_a_page_that_draws_every_node(cli, corpus, browse, tmp_path):
    files = corpus_ainb_files()
    assert len(files) >= 121

    def make(path):
        page = tmp_path / (path.stem + ".html")
        code, _, err = cli("run", path, "--stub-missing-modules", "--modules", corpus / "bulk/ainb",
                           "--modules", corpus / "ainb", "--generic-nodes", "--stub-children",
                           "--restart", "--frames", 60, "--html", page)
        assert code == 0, f"{path.name}: {err}"
        return page

    def problems_of(snaps):
        problems = []
        for snap in snaps:
            if snap["errors"]:
                problems.append(snap["errors"])
            drawn = [g for g in snap["graph"] if g[2] and re.fullmatch(r"f0n\d+", g[0])]
            if len(drawn) != len(snap["rows"]):
                problems.append(f"{len(drawn)} nodes drawn, {len(snap['rows'])} listed")
        return problems

    def check(batch):
        results = browse(batch, "frame=30", ["snap", "key:End", "snap"])
        assert len(results) == len(batch)
        return [(page.stem, problems_of(snaps)) for page, snaps in zip(batch, results)]

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        pages = list(pool.map(make, files))
        batches = [pages[i:i + BATCH] for i in range(0, len(pages), BATCH)]
        checked = [item for result in pool.map(check, batches) for item in result]
    assert len(checked) == len(files)
    assert {name: problems for name, problems in checked if problems} == {}
