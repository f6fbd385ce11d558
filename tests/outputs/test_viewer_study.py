"""The viewer's analysis in a real browser (Chromium by Playwright, as in test_viewer_browser):
the best move drawn as ghosts, the candidate list, the engine's verdicts, the legend of
colours and shapes, and the phone layout (390x844: fixed controls, readable labels, tap
and swipe). Everything shown is compared with the library's analysis of the same game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_viewer_browser import browser  # noqa: F401  (the fixture: one Chromium for the module)

from qwirkle_tools.analysis.analyse import Analysis, analyse
from qwirkle_tools.core.board import format_move
from qwirkle_tools.core.tiles import COLOUR_CODES, COLOURS, SHAPE_CODES, SHAPES
from qwirkle_tools.outputs.viewer import page
from qwirkle_tools.play.engine import History
from qwirkle_tools.play.load import load_history

SAMPLES = Path(__file__).parents[2] / "sample_games"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

READ = """() => ({
  turn: Number(document.documentElement.dataset.turn),
  shown: document.documentElement.dataset.shown,
  ghosts: [...document.querySelectorAll('#board [data-best]')].map((e) =>
      [e.dataset.best, Number(e.dataset.x), Number(e.dataset.y)]),
  cands: [...document.querySelectorAll('#cands [data-cand]')].map((e) => ({
      text: e.querySelector('td.move').firstChild.textContent, score: Number(e.dataset.score), lost: Number(e.dataset.lost),
      value: e.dataset.value === undefined ? null : Number(e.dataset.value), played: e.classList.contains('played')})),
})"""

BARS = "() => [...document.querySelectorAll('#lost-chart .bar')].map((b) => [Number(b.dataset.n), Number(b.dataset.lost)])"

# every text of the board and the charts, with its size on the screen in CSS pixels
TEXT_SIZES = """() => [...document.querySelectorAll('#board text, #chart text, #lost-chart text')].map((e) => {
  const m = e.getScreenCTM();
  return [e.textContent, parseFloat(getComputedStyle(e).fontSize) * Math.hypot(m.a, m.b)];
})"""


class Opened:
    """A page of one game at one viewport, its console errors recorded."""

    def __init__(self, chromium: Any, url: str, viewport: dict[str, int], touch: bool = False) -> None:
        self.context = chromium.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.url = url
        self.page.goto(url)

    def at(self, n: int) -> dict[str, Any]:
        self.page.goto("about:blank")
        self.page.goto(f"{self.url}#turn={n}")
        return self.read()

    def read(self) -> dict[str, Any]:
        return dict(self.page.evaluate(READ))


@pytest.fixture
def opened(browser: Any, tmp_path: Path) -> Iterator[Any]:  # noqa: F811
    made: list[Opened] = []

    def open_page(name: str, engine: str = "greedy", viewport: dict[str, int] = DESKTOP, touch: bool = False
                  ) -> tuple[Opened, History, Analysis]:
        history = load_history(SAMPLES / name)
        analysis = analyse(history, engine)  # type: ignore[arg-type]
        path = tmp_path / f"{name}-{engine}.html"
        path.write_text(page(history, analysis, title=name), encoding="utf-8")
        one = Opened(browser, path.as_uri(), viewport, touch)
        made.append(one)
        return one, history, analysis

    yield open_page
    for one in made:
        assert one.errors == []
        one.context.close()


def cells(tiles: Any) -> list[list[Any]]:
    return sorted([str(p.tile), p.x, p.y] for p in tiles)


GAMES = [("296-295.json", "lookahead"), ("296-295.json", "greedy"), ("mistakes.json", "greedy"),
         ("weak-play.json", "lookahead"), ("weak-play.json", "greedy")]


def best_of(t: Any) -> Any:
    return t.verdict.best if t.verdict is not None else t.best


@pytest.mark.parametrize(("name", "engine"), GAMES)
def test_the_best_move_ghosts_and_the_candidates_match_the_analysis(name: str, engine: str, opened: Any) -> None:
    view, history, analysis = opened(name, engine)

    def played_best(t: Any) -> bool:
        turn = history.turns[t.turn - 1]
        return turn.tiles is not None and cells(turn.tiles) == cells(best_of(t).tiles)

    judged = [t for t in analysis.turns if best_of(t) is not None]
    # several turns of each kind: the best move played, and not (a greedy player's game has none of those)
    at = [t for t in judged if not played_best(t)][:3] + [t for t in judged if played_best(t)][1:3]
    assert len(at) >= 4
    for t in at:
        got = view.at(t.turn)
        assert got["turn"] == t.turn
        if played_best(t):
            assert got["ghosts"] == [] and got["shown"] == "none"  # the best was played: nothing to draw over it
        else:
            assert sorted(got["ghosts"]) == cells(best_of(t).tiles) and got["shown"] == "best"
        want = [{"text": format_move(c.move.tiles), "score": c.score, "lost": c.lost,
                 "value": None if c.value is None else round(c.value, 2), "played": c.played} for c in t.candidates]
        assert got["cands"] == want and len(want) >= 5


def test_a_candidate_clicked_is_drawn_and_b_hides_the_ghosts(opened: Any) -> None:
    view, _, analysis = opened("296-295.json", "lookahead")
    t = analysis.turns[13]
    got = view.at(14)
    view.page.click("#cands [data-cand='3']")
    got = view.read()
    assert sorted(got["ghosts"]) == cells(t.candidates[3].move.tiles) and got["shown"] == "candidate 4"
    view.page.click("#cands [data-cand='3']")  # clicked again: back to the best move
    assert view.read()["shown"] == "best"
    view.page.keyboard.press("b")
    assert view.read()["ghosts"] == [] and view.page.get_attribute("#best-toggle", "aria-pressed") == "false"
    view.page.keyboard.press("B")
    assert sorted(view.read()["ghosts"]) == cells(t.verdict.best.tiles)  # type: ignore[union-attr]
    view.page.click("#best-toggle")
    assert view.read()["ghosts"] == []


def test_the_engines_verdicts_are_in_the_move_list_and_the_loss_graph(opened: Any) -> None:
    view, _, analysis = opened("296-295.json", "lookahead")
    rows = view.page.evaluate("""() => [...document.querySelectorAll('#moves tbody[data-n]')].slice(1).map((b) => ({
        lost: b.dataset.valueLost === undefined ? null : Number(b.dataset.valueLost), text: b.textContent}))""")
    bars = view.page.evaluate(BARS)
    assert view.page.text_content("#lost-title") == "Value lost per turn"
    assert len(rows) == len(analysis.turns) == 64
    for t, row in zip(analysis.turns, rows):
        assert t.verdict is not None
        assert row["lost"] == round(t.verdict.value_lost, 2)
        assert ("better-move" in row["text"]) == ("better-move" in t.flags)
    assert [n for n, t in enumerate(analysis.turns, 1) if "better-move" in t.flags] == [2, 8, 14, 59]
    assert bars == [[t.turn, round(t.verdict.value_lost, 2)] for t in analysis.turns if t.verdict is not None]


def test_a_greedy_page_graphs_the_points_lost(opened: Any) -> None:
    view, _, analysis = opened("complete-2p.json")
    bars = view.page.evaluate(BARS)
    assert view.page.text_content("#lost-title") == "Points lost per turn"
    assert bars == [[t.turn, t.points_lost] for t in analysis.turns if t.best_score is not None]


def test_the_legend_names_every_colour_and_shape_with_its_letter_in_the_pages_colours(opened: Any) -> None:
    view, _, _ = opened("complete-2p.json")
    data = json.loads(view.page.text_content("#game-data"))
    colours = view.page.evaluate("""() => [...document.querySelectorAll('#tile-legend [data-colour]')].map((e) =>
        [e.dataset.colour, e.textContent.trim(), e.querySelectorAll('rect')[1].getAttribute('fill')])""")
    shapes = view.page.evaluate("""() => [...document.querySelectorAll('#tile-legend [data-shape]')].map((e) =>
        [e.dataset.shape, e.textContent.trim(), e.querySelector('use').getAttribute('href')])""")
    assert colours == [[c, f"{c} {name}", data["colours"][k]] for k, (c, name) in enumerate(zip(COLOUR_CODES, COLOURS))]
    assert shapes == [[c, f"{c} {name}", f"#shape-{name}"] for c, name in zip(SHAPE_CODES, SHAPES)]
    assert view.page.is_visible("#tile-legend")


def inside(box: dict[str, float], viewport: dict[str, int]) -> bool:
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= viewport["width"] and \
        box["y"] + box["height"] <= viewport["height"]


CONTROLS = ("#first", "#prev", "#slider", "#next", "#last", "#best-toggle", "#turn-label")


def swipe(view: Opened, x0: int, x1: int, y: int) -> None:
    cdp = view.context.new_cdp_session(view.page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
    for k in range(1, 6):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x0 + (x1 - x0) * k // 5, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_on_a_phone_the_controls_stay_in_view_and_tap_and_swipe_step(opened: Any, tmp_path: Path) -> None:
    view, _, analysis = opened("296-295.json", "lookahead", PHONE, True)
    assert view.at(20)["turn"] == 20
    for scrolled in ("top", "middle", "bottom"):
        view.page.evaluate(f"() => window.scrollTo(0, {{top: 0, middle: document.body.scrollHeight / 2, "
                           f"bottom: document.body.scrollHeight}}['{scrolled}'])")
        for sel in CONTROLS:
            box = view.page.locator(sel).bounding_box()
            assert box is not None and inside(box, PHONE), (scrolled, sel, box)
    view.page.tap("#next")
    assert view.read()["turn"] == 21
    view.page.tap("#prev")
    view.page.tap("#prev")
    assert view.read()["turn"] == 19
    view.page.evaluate("() => window.scrollTo(0, 0)")
    board = view.page.locator("#board").bounding_box()
    assert board is not None and inside(board, PHONE)
    y = int(board["y"] + board["height"] / 2)
    swipe(view, 300, 120, y)  # to the left: the next turn
    assert view.read()["turn"] == 20
    swipe(view, 100, 300, y)  # to the right: the previous
    swipe(view, 100, 300, y)
    assert view.read()["turn"] == 18
    moves = view.page.locator("#moves-panel").bounding_box()
    assert moves is not None
    view.page.locator("#moves-panel").scroll_into_view_if_needed()
    box = view.page.locator("#moves-panel h2").bounding_box()
    assert box is not None
    swipe(view, 300, 80, int(box["y"]) + 5)  # on the move list too
    assert view.read()["turn"] == 19
    got = view.at(14)
    assert sorted(got["ghosts"]) == cells(analysis.turns[13].verdict.best.tiles)  # type: ignore[union-attr]
    view.page.screenshot(path=str(tmp_path / "phone.png"))


@pytest.mark.parametrize(("viewport", "touch"), [(PHONE, True), (DESKTOP, False)])
def test_board_coordinates_and_chart_labels_are_at_least_10_px(viewport: dict[str, int], touch: bool, opened: Any) -> None:
    view, history, _ = opened("weak-play.json", "greedy", viewport, touch)
    for n in (5, len(history.turns)):  # a small board and the whole game's
        view.at(n)
        sizes = view.page.evaluate(TEXT_SIZES)
        assert len(sizes) > 20
        small = [(text, round(size, 1)) for text, size in sizes if size < 10]
        assert small == [], (n, small)


def test_a_score_sheet_shows_what_it_cannot_know_as_n_a_not_zero_or_null(opened: Any) -> None:
    one, _, analysis = opened("296-295-sheet.csv")
    assert all(p.points_lost is None and p.qwirkles_made is None for p in analysis.players)  # the library's side
    stats = one.page.evaluate("() => [...document.querySelectorAll('#players .stats')].map((e) => e.textContent)")
    assert len(stats) == 2
    for text in stats:
        assert "n/a points lost" in text and "n/a Qwirkles made" in text and "n/a missed" in text
        assert "null" not in text and "0 points lost" not in text
