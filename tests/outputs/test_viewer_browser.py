"""The viewer page in a real browser: Playwright driving the system Chromium.

Every sample game is written with ``qwirkle_tools.outputs.viewer.page``, opened from
disk and stepped with the keys, the slider, the move list and the chart; the
board tiles, the scores and the tile tracker are read through the page's
documented hooks and compared with the library's replay. No request but the
page itself may be made, no console message of severity error may appear.

The tests need the ``playwright`` package and a ``chromium`` on ``PATH``
(Debian's package; Playwright's own browser download is not used). Without
them they skip, unless ``QWIRKLE_REQUIRE_BROWSER=1`` (set by ``.ci/run``),
which makes a missing browser a failure.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_viewer import HOSTILE, hostile_data, huge_sheet, isolated, too_wide

from qwirkle_tools.core.tiles import TILES
from qwirkle_tools.formats.record import from_data, loads
from qwirkle_tools.outputs.viewer import page
from qwirkle_tools.play.engine import History, replay

SAMPLES = Path(__file__).parents[2] / "sample_games"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# everything the hooks show, in one round trip
READ = """() => ({
  turn: Number(document.documentElement.dataset.turn),
  hash: location.hash,
  tiles: [...document.querySelectorAll('#board [data-tile]')].map(
      (e) => [e.dataset.tile, Number(e.dataset.x), Number(e.dataset.y)]),
  scores: [...document.querySelectorAll('[data-seat][data-score]')].map(
      (e) => [Number(e.dataset.seat), Number(e.dataset.score), e.textContent]),
  unseen: [...document.querySelectorAll('[data-unseen]')].map((e) => [e.dataset.unseen, e.textContent]),
})"""


def _chromium() -> str:
    required = os.environ.get("QWIRKLE_REQUIRE_BROWSER") == "1"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if required:
            pytest.fail("QWIRKLE_REQUIRE_BROWSER=1 but the playwright package is not installed")
        pytest.skip("the playwright package is not installed (pip install -e '.[test]')")
    found = shutil.which("chromium")
    if found is None:
        if required:
            pytest.fail("QWIRKLE_REQUIRE_BROWSER=1 but no chromium on PATH (apt-get install -y chromium)")
        pytest.skip("no chromium on PATH: the browser tests need the system Chromium (apt-get install -y chromium)")
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=executable, args=ARGS)
        yield chromium
        chromium.close()


class Watched:
    """A page with its requests, console errors, uncaught errors and dialogs recorded."""

    def __init__(self, browser: Any) -> None:
        self.page = browser.new_page(viewport={"width": 1300, "height": 900})
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

        def dialog(d: Any) -> None:
            self.dialogs.append(d.message)
            d.dismiss()

        self.page.on("dialog", dialog)

    def open(self, url: str) -> dict[str, Any]:
        """Load ``url`` afresh (by way of a blank page: a new ``#turn`` alone would not reload)."""
        self.page.goto("about:blank")
        self.page.goto(url)
        return self.read()

    def read(self) -> dict[str, Any]:
        return dict(self.page.evaluate(READ))

    def key(self, key: str, times: int = 1) -> dict[str, Any]:
        for _ in range(times):
            self.page.keyboard.press(key)
        return self.read()


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    w = Watched(browser)
    yield w
    w.page.close()


def write_page(tmp_path: Path, history: History, name: str) -> str:
    path = tmp_path / (name + ".html")
    path.write_text(page(history, title=name), encoding="utf-8")
    return path.as_uri()


def expected(history: History, n: int) -> dict[str, Any]:
    """What the hooks must show after ``n`` turns, from the library's replay."""
    state = history.state(n)
    turns = history.record.turns
    unseen = list(state.unseen(-1))  # not on the board, nor in the rack the mover holds (the start position too)
    for t in (history.known_rack(n)[0] or []) if n < len(turns) else []:
        unseen[t] -= 1
    return {
        "turn": n,
        "tiles": sorted([str(t), x, y] for (x, y), t in state.board.items()) if state.board_known else [],
        "scores": [[p, s, str(s)] for p, s in enumerate(state.scores)],
        "unseen": [[str(TILES[t]), str(unseen[t]) if state.board_known else "?"] for t in range(36)],
    }


def shown(read: dict[str, Any]) -> dict[str, Any]:
    return {"turn": read["turn"], "tiles": sorted(read["tiles"]), "scores": read["scores"], "unseen": read["unseen"]}


@pytest.mark.parametrize("name", sorted(p.stem for p in SAMPLES.glob("*.json")))
def test_stepping_through_a_sample_shows_the_replay(name: str, watched: Watched, tmp_path: Path) -> None:
    history = replay(loads((SAMPLES / f"{name}.json").read_bytes()))
    count = len(history.record.turns)
    url = write_page(tmp_path, history, name)
    read = watched.open(url)
    assert shown(read) == expected(history, count)  # it opens at the end
    read = watched.key("Home")
    assert shown(read) == expected(history, 0) and read["hash"] == "#turn=0"
    for step, n in [(1, 1), (1, 2), (3, 5)]:
        read = watched.key("ArrowRight", step)
        assert shown(read) == expected(history, n) and read["hash"] == f"#turn={n}"
    read = watched.key("ArrowLeft")
    assert shown(read) == expected(history, 4)
    middle = count // 2
    read = watched.open(f"{url}#turn={middle}")
    assert shown(read) == expected(history, middle)
    read = watched.key("End")
    assert shown(read) == expected(history, count) and read["hash"] == f"#turn={count}"
    read = watched.key("ArrowRight")  # past the end: stays
    assert read["turn"] == count
    assert watched.errors == [] and watched.dialogs == []
    assert watched.requests == [url, url]  # the two loads of the page itself (a request has no fragment)


def test_the_slider_the_move_list_and_the_chart_step_too(watched: Watched, tmp_path: Path) -> None:
    history = replay(loads((SAMPLES / "296-295.json").read_bytes()))
    url = write_page(tmp_path, history, "296-295")
    watched.open(url + "#turn=3")
    p = watched.page
    p.locator("#moves tbody[data-n='17']").click()
    assert shown(watched.read()) == expected(history, 17)
    assert p.locator("#moves tbody.current").get_attribute("data-n") == "17"
    p.locator("#chart .pt[data-n='40']").first.click()
    assert shown(watched.read()) == expected(history, 40)
    p.locator("#slider").fill("12")
    assert shown(watched.read()) == expected(history, 12)
    p.locator("#next").click()
    assert watched.read()["turn"] == 13
    # the last move is outlined: the tiles turn 13 placed, and only those
    placed = sorted([str(pl.tile), pl.x, pl.y] for pl in history.record.turns[12].tiles or ())
    last = p.evaluate("() => [...document.querySelectorAll('#board .tile.last')].map("
                      "(e) => [e.dataset.tile, Number(e.dataset.x), Number(e.dataset.y)])")
    assert sorted(last) == placed
    watched.page.evaluate("() => { location.hash = '#turn=7'; }")  # an edited address is followed
    watched.page.wait_for_function("() => document.documentElement.dataset.turn === '7'")
    assert shown(watched.read()) == expected(history, 7)
    assert watched.errors == [] and watched.requests == [url]


def test_ghosts_and_the_gift_line_show_on_annotated_turns(watched: Watched, tmp_path: Path) -> None:
    history = replay(loads((SAMPLES / "weak-play.json").read_bytes()))
    url = write_page(tmp_path, history, "weak-play")
    watched.open(url + "#turn=53")
    ghosts = watched.page.evaluate("() => [...document.querySelectorAll('#board [data-ghost]')].map((e) => e.dataset.ghost)")
    assert sorted(ghosts) == ["blue-diamond", "red-diamond"]
    watched.open(url + "#turn=52")
    assert watched.page.locator("#board [data-ghost]").count() == 0
    history = replay(loads((SAMPLES / "296-295.json").read_bytes()))
    url = write_page(tmp_path, history, "296-295")
    line = "#board .gift-line"
    watched.open(url + "#turn=19")  # Ana leaves a row of five open; Ben completes it at turn 20
    assert watched.page.locator(line).count() == 1
    ends = [float(watched.page.locator(line).get_attribute(a) or "nan") for a in ("x1", "y1", "x2", "y2")]
    assert ends[1] == ends[3] and ends[2] - ends[0] > 4  # along the row
    watched.open(url + "#turn=17")  # a column of five: (-2,-6) to (-2,-2)
    ends = [float(watched.page.locator(line).get_attribute(a) or "nan") for a in ("x1", "y1", "x2", "y2")]
    assert ends[0] == ends[2] and ends[3] - ends[1] > 4  # down the column
    watched.open(url + "#turn=20")
    assert watched.page.locator("#board .gift-line").count() == 0
    assert watched.errors == []


def test_every_tile_of_a_setup_is_drawn_and_a_board_of_too_many_tiles_to_the_108th(watched: Watched,
                                                                                    tmp_path: Path) -> None:
    read = watched.open(write_page(tmp_path, replay(from_data(isolated(apart=2))), "isolated"))
    assert len(read["tiles"]) == 108 and watched.page.locator("#board-note").text_content() == "108 tiles"
    history = replay(from_data(too_wide()))  # lone tiles far apart, one a turn: the replay puts down 108
    path = write_page(tmp_path, history, "too-wide")
    read = watched.open(path + "#turn=108")
    assert read["turn"] == 108 and len(read["tiles"]) == 108
    assert "not drawn" not in (watched.page.locator("#board-note").text_content() or "")
    assert watched.errors == []


def test_the_chart_of_a_sheet_with_huge_totals_has_a_few_labels(watched: Watched, tmp_path: Path) -> None:
    watched.open(write_page(tmp_path, replay(from_data(huge_sheet())), "huge"))
    labels = watched.page.locator("#chart text.tick").all_text_contents()
    assert labels[:6] == ["0", "5M", "10M", "15M", "20M", "0"]  # the scores (to 200 x 100,000), then the turns
    assert labels[5:] == [str(n) for n in range(0, 401, 50)]
    assert watched.errors == []


def test_a_hostile_record_runs_nothing_and_shows_the_names(watched: Watched, tmp_path: Path) -> None:
    history = replay(from_data(hostile_data()))
    path = tmp_path / "hostile.html"
    path.write_text(page(history, title=HOSTILE[0] + ".json"), encoding="utf-8")
    read = watched.open(path.as_uri() + "#turn=1")
    assert read["turn"] == 1
    p = watched.page
    assert p.evaluate("() => window.__pwned") is None
    assert p.locator("img").count() == 0 and p.locator("a").count() == 0
    assert p.locator("script").count() == 2
    names = p.locator(".player-name").all_text_contents()
    assert names == HOSTILE[:2]
    assert p.locator("#title").text_content() == HOSTILE[0] + ".json"
    assert HOSTILE[2] in p.locator("#moves").text_content()
    meta = p.locator("#meta").text_content()
    assert HOSTILE[3] in meta and HOSTILE[1] in meta and HOSTILE[4] in meta
    assert watched.dialogs == [] and watched.errors == [] and watched.requests == [path.as_uri()]


def test_a_score_sheet_shows_the_chart_and_the_list_without_a_board(watched: Watched, tmp_path: Path) -> None:
    history = replay(loads((SAMPLES / "score-sheet.json").read_bytes()))
    url = write_page(tmp_path, history, "score-sheet")
    watched.open(url + "#turn=20")
    p = watched.page
    assert not p.locator("#board-panel").is_visible() and p.locator("[data-tile]").count() == 0
    assert p.locator("#chart").is_visible() and p.locator("#chart .series").count() == 2
    assert p.locator("#moves tbody").count() == len(history.record.turns) + 1  # and the start
    assert p.locator(".rack").first.text_content() == "rackunknown"
    assert [c for _, c in watched.read()["unseen"]] == ["?"] * 36
    assert not p.locator("#win-box").is_visible()  # no board, no win chance
    assert watched.errors == []


def test_the_win_chance_chart_marks_the_blunders_and_mistakes_and_steps_to_them(watched: Watched, tmp_path: Path) -> None:
    from qwirkle_tools.analysis.analyse import analyse
    from qwirkle_tools.analysis.annotation import decisive_moments

    history = replay(loads((SAMPLES / "weak-play.json").read_bytes()))
    url = write_page(tmp_path, history, "weak-play")
    watched.open(url + "#turn=3")
    p = watched.page
    assert p.locator("#win-box").is_visible() and p.locator("#win-title").text_content() == "Win chance of Ana (estimated)"
    assert "the lead and the tiles" in (p.locator("#win-title").get_attribute("title") or "")
    analysis = analyse(history)
    decisive = {t.turn for t in decisive_moments(analysis)}
    marked = {(t.turn, t.win.kind or "decisive", "yes" if t.turn in decisive else "no") for t in analysis.turns
              if t.win is not None and (t.win.kind in ("blunder", "mistake") or t.turn in decisive)}
    drawn = p.evaluate("() => [...document.querySelectorAll('#win-chart .mark')]"
                       ".map((e) => [Number(e.dataset.n), e.dataset.kind, e.dataset.decisive])")
    assert {(n, kind, d) for n, kind, d in drawn} == marked and marked
    assert len(decisive) == 2 and p.locator("#win-chart .decisive-ring").count() == len(decisive)  # each player's worst
    first = min(n for n, _, _ in marked)
    p.locator(f"#win-chart .mark[data-n='{first}']").click()
    assert watched.read()["turn"] == first
    assert p.locator("#win-chart .cursor").count() == 1
    assert watched.errors == []


def test_the_board_fits_itself_until_the_user_zooms_or_pans(watched: Watched, tmp_path: Path) -> None:
    history = replay(loads((SAMPLES / "complete-2p.json").read_bytes()))
    url = write_page(tmp_path, history, "complete-2p")
    watched.open(url + "#turn=2")
    p = watched.page

    def box() -> list[float]:
        return [float(v) for v in (p.locator("#board").get_attribute("viewBox") or "").split()]

    small = box()
    watched.key("End")
    fitted = box()
    assert fitted[2] > small[2]  # the view grew with the board
    p.locator("#board").hover()
    p.mouse.wheel(0, -300)  # zoom in
    p.wait_for_function(f"() => document.getElementById('board').viewBox.baseVal.width < {fitted[2] - 0.01}")
    zoomed = box()
    box_ = p.locator("#board").bounding_box()
    assert box_ is not None
    p.mouse.move(box_["x"] + 200, box_["y"] + 200)
    p.mouse.down()
    p.mouse.move(box_["x"] + 260, box_["y"] + 230)
    p.mouse.up()
    panned = box()
    assert panned[2] == zoomed[2] and panned[0] < zoomed[0] and panned[1] < zoomed[1]
    watched.key("ArrowLeft")
    assert box() == panned  # the user's view is kept while stepping
    p.locator("#fit").click()
    watched.key("End")
    assert box() == fitted
    assert watched.errors == []


def test_the_leader_and_the_claims_that_differ_are_marked_as_the_library_says(watched: Watched, tmp_path: Path) -> None:
    from qwirkle_tools.analysis.rescore import rescore
    from qwirkle_tools.play.engine import sole_leader

    history = replay(loads((SAMPLES / "wrong-scores.json").read_bytes()))
    watched.open(write_page(tmp_path, history, "wrong-scores") + "#turn=0")
    leaders = "() => [...document.querySelectorAll('.player.leader')].map((e) => Number(e.dataset.player))"
    totals = [history.initial.scores, *(r.totals for r in history.results)]
    marked = []
    for n, scores in enumerate(totals):
        if n:
            watched.key("ArrowRight")
        leader = sole_leader(scores)
        marked.append(watched.page.evaluate(leaders))
        assert marked[-1] == ([] if leader is None else [leader]), n
    assert [] in marked and [0] in marked and [1] in marked  # ties, and each seat ahead
    differs = watched.page.evaluate("() => [...document.querySelectorAll('#moves td.differs')].map("
                                    "(e) => [Number(e.closest('tbody').dataset.n), e.textContent])")
    assert differs == [[r.turn, f"{r.computed} !"] for r in rescore(history).rows if r.differs] and differs
    assert watched.errors == []
