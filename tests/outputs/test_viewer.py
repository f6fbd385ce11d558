"""The viewer page as text: self-contained, escaped, small, and built from the engine.

What the page does in a browser is tested in ``test_viewer_browser.py``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import game, place

from qwirkle_tools.analysis.analyse import analyse
from qwirkle_tools.analysis.validate import check_data
from qwirkle_tools.core.tiles import TILES, parse_tiles
from qwirkle_tools.formats.record import from_data, loads
from qwirkle_tools.outputs.reporting import build
from qwirkle_tools.outputs.viewer import page, page_data, script_json
from qwirkle_tools.play.engine import replay

SAMPLES = Path(__file__).parents[2] / "sample_games"
HOSTILE = ["</script><script>window.__pwned = 1</script>", "<img src=x onerror=\"window.__pwned=2\">",
           "<a href=\"javascript:window.__pwned=3\">click</a>", "<!--", "Ana\u2028Ben\u2029&amp;"]


def sample(name: str) -> Any:
    return replay(loads((SAMPLES / name).read_bytes()))


def hostile_data() -> dict[str, Any]:
    """A short legal game whose names, comment and meta try to inject markup and script."""
    data = game(place(0, "rc@0,0 rx@1,0", 2, rack="rc rx bd yx gl pt"), place(1, "rd@2,0", 3))
    data["players"] = [{"name": HOSTILE[0]}, {"name": HOSTILE[1]}]
    data["turns"][0]["comment"] = HOSTILE[2]
    data["meta"] = {"event": HOSTILE[3], HOSTILE[1]: HOSTILE[4]}
    return data


def parts(html: str) -> dict[str, Any]:
    """The page's script elements and its Content-Security-Policy."""
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html)
    style = re.search(r"<style>(.*?)</style>", html, re.S)
    assert csp is not None and style is not None
    return {"scripts": scripts, "csp": csp[1], "style": style[1]}


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@pytest.mark.parametrize("text", HOSTILE + ["\u2028\u2029", "a\x00b\x1b[31m", "😀 Zoë"])
def test_script_json_cannot_close_its_element_and_parses_back(text: str) -> None:
    out = script_json({"name": text, "list": [text, 1, None]})
    for bad in ("<", ">", "&", "\u2028", "\u2029"):
        assert bad not in out
    assert json.loads(out) == {"name": text, "list": [text, 1, None]}


def test_a_hostile_record_is_data_in_one_script_element() -> None:
    history = replay(from_data(hostile_data()))
    html = page(history, title="<b>evil</b>.json")
    found = parts(html)
    # exactly the data block and the page's own script: nothing from the record became markup
    assert [attrs for attrs, _ in found["scripts"]] == [' type="application/json" id="game-data"', ""]
    assert html.count("<script") == 2 and html.count("</script") == 2
    assert "<img" not in html and "javascript:" not in found["scripts"][1][1] and "<b>" not in html
    assert "<title>&lt;b&gt;evil&lt;/b&gt;.json</title>" in html
    data = json.loads(found["scripts"][0][1])
    assert data["players"] == HOSTILE[:2]
    assert data["turns"][0]["comment"] == HOSTILE[2]
    assert data["meta"] == [["event", HOSTILE[3]], [HOSTILE[1], HOSTILE[4]]]
    assert data["title"] == "<b>evil</b>.json"


def test_the_page_loads_nothing_and_allows_only_its_own_script_and_style() -> None:
    html = page(sample("complete-2p.json"), title="complete-2p.json")
    found = parts(html)
    csp = found["csp"]
    assert csp.startswith("default-src 'none'; ")
    assert f"script-src {sha256(found['scripts'][1][1])};" in csp
    assert f"style-src {sha256(found['style'])};" in csp
    # no external resource of any kind: the only URL is the SVG namespace the script names
    assert re.findall(r"https?://[^\s\"')]+", html) == ["http://www.w3.org/2000/svg"]
    for marker in ("<link", "@import", "url(", " src=", "fetch(", "XMLHttpRequest", "innerHTML", "insertAdjacentHTML",
                   "document.write", "eval("):
        assert marker not in html, marker


def test_the_page_is_small() -> None:
    weak = page(sample("weak-play.json"), title="weak-play.json")  # 71 turns
    final = page(sample("296-295.json"), title="296-295.json")
    assert len(sample("weak-play.json").record.turns) == 71
    assert len(weak.encode()) < 150_000 and len(final.encode()) < 150_000  # "well under 1 MB"


@pytest.mark.parametrize(("doc", "said"), [
    ("getting-started.md", r"one file of about ([0-9]+) kB \(the 64 turns of `296-295.json`\)"),
    ("limits.md", r"([0-9]+) kB for the 64 turns of `296-295.json`")])
def test_the_docs_give_the_sample_pages_size_within_a_quarter(tmp_path: Path, doc: str, said: str) -> None:
    from conftest import run_cli

    text = " ".join((SAMPLES.parent / "docs" / doc).read_text().split())
    figure = re.search(said, text)
    assert figure is not None, f"{doc} no longer says the page's size as this test reads it"
    code, _, err = run_cli("view", str(SAMPLES / "296-295.json"), "-o", str(tmp_path / "game.html"))
    assert code == 0, err
    size = (tmp_path / "game.html").stat().st_size / 1000
    assert abs(int(figure[1]) - size) <= 0.25 * size, f"{doc} says {figure[1]} kB; the page is {size:.0f} kB"


def test_the_data_follows_the_replay() -> None:
    history = sample("296-295.json")
    analysis = analyse(history)
    data = page_data(history, analysis, "296-295.json")
    assert data["players"] == ["Ana", "Ben"] and len(data["states"]) == 65 and len(data["turns"]) == 64
    board: dict[tuple[int, int], int] = {}
    for n, state in enumerate(data["states"]):
        for x, y in state["del"]:
            del board[(x, y)]
        for t, x, y in state["add"]:
            board[(x, y)] = t
        engine_state = history.state(n)
        assert board == {cell: int(t) for cell, t in engine_state.board.items()}
        pov = history.record.turns[n].player if n < 64 else -1
        rack = history.record.turns[n].rack if n < 64 else ()
        assert rack is not None  # every turn of this game records its rack
        assert state["unseen"] == unseen(engine_state.board.cells.values(), rack) and state["pov"] == pov
        assert state["bag"] == engine_state.bag
        if n:
            assert data["turns"][n - 1]["tot"] == list(engine_state.scores)
    gifts = [i + 1 for i, t in enumerate(data["turns"]) if "gift" in t]
    assert gifts == [t.turn for t in analysis.turns if t.gift is not None] and len(gifts) == 6
    assert data["lead"] == [[c.turn, c.leader] for c in history.lead_changes()]


def unseen(*groups: Any) -> list[int]:
    """The count of each tile not in any of ``groups`` (tile numbers or tiles)."""
    counts = [3] * 36
    for group in groups:
        for t in group:
            counts[int(t)] -= 1
    return counts


def test_the_tracker_leaves_out_the_rack_the_mover_holds_at_the_start_too() -> None:
    history = sample("296-295.json")
    start = page_data(history, analyse(history))["states"][0]
    first = history.record.turns[0].rack
    assert first is not None and start["pov"] == 0
    assert start["unseen"] == unseen(first) and sum(start["unseen"]) == 108 - 6
    assert start["racks"][0] == [[int(t) for t in first], 6] and start["racks"][1] == [[], 6]
    # a rack recorded only later (Ben's draws are not recorded): the position before it counts it too
    data = game(place(0, "rc@0,0 rx@1,0", 2, rack="rc rx bd yx gl pt"), place(1, "rd@2,0", 3, rack="rd gs gs bl yc oc"))
    history = replay(from_data(data))
    states = page_data(history, analyse(history))["states"]
    ben = [int(t) for t in parse_tiles("rd gs gs bl yc oc")]
    assert states[1]["pov"] == 1 and states[1]["unseen"] == unseen(parse_tiles("rc rx"), ben)
    assert states[1]["racks"][1] == [ben, 6]
    assert states[2]["unseen"] == unseen(parse_tiles("rc rx rd"))  # after the last turn: what is not on the board


def isolated(tiles: int = 108, apart: int = 2) -> dict[str, Any]:
    """A legal setup of ``tiles`` tiles, none touching another, on a diagonal ``apart`` cells apart."""
    board = [{"tile": str(TILES[i // 3 % 36]), "x": apart * i, "y": apart * i} for i in range(tiles)]
    return game(setup={"board": board, "bag": 0, "racks": [0, 0]})


@pytest.mark.parametrize("apart", [2, 5, 1_000])
def test_every_tile_of_a_game_is_drawn_however_far_apart(apart: int) -> None:
    data = isolated(apart=apart)
    assert check_data(data)[1] == []
    history = replay(from_data(data))
    page_state = page_data(history, analyse(history))
    cols, rows = set(page_state["cols"]), set(page_state["rows"])
    assert all(apart * i in cols and apart * i in rows for i in range(108))  # the page draws every tile
    assert "cut" not in page_state["states"][0]


def too_wide() -> dict[str, Any]:
    """A record that puts down more tiles than the game has, lone and far apart, one a turn (illegal
    moves); the racks stay full, so the game goes on, and no Qwirkle is possible, so no ghost tiles
    widen the board."""
    from qwirkle_tools.outputs.pictures import MAX_SHOWN

    return game(*[place(i % 2, f"rc@{10 * i},{10 * i}", rack="rc gx yd bs pt ol") for i in range(MAX_SHOWN)])


def test_a_record_of_more_tiles_than_the_game_has_is_drawn_whole_to_the_108th() -> None:
    # lone tiles far apart, one a turn (illegal moves): the replay puts down 108 and no more (a
    # too-many-tiles finding; the board is not known after it), so no board of the page is ever cut
    history = replay(from_data(too_wide()))
    assert any(f.code == "too-many-tiles" for f in history.findings)
    states = page_data(history, analyse(history))["states"]
    assert all("cut" not in s for s in states)
    assert sum(len(s["add"]) for s in states) == 108
    assert [s["known"] for s in states[108:110]] == [True, False]


def huge_sheet(turns: int = 400) -> dict[str, Any]:
    """A valid score sheet whose every turn scores the most a sheet's cell may hold."""
    from qwirkle_tools.formats.sheets import MAX_POINTS

    return game(*[place(i % 2, score=MAX_POINTS) for i in range(turns)])


@pytest.mark.parametrize(("name", "top"), [("296-295.json", 296), ("huge", 200 * 100_000)])
def test_the_chart_has_a_few_round_axis_values_whatever_the_totals(name: str, top: int) -> None:
    history = sample(name) if name.endswith(".json") else replay(from_data(huge_sheet()))
    data = page_data(history, analyse(history))
    y, x = data["yticks"], data["xticks"]
    assert y[0] == 0 and y[-2] < top <= y[-1] and len(y) <= 7  # the axis reaches just past the top total
    assert x[0] == 0 and x[-1] <= len(data["turns"]) and len(x) <= 13
    for axis in (x, y):
        step = axis[1] - axis[0]
        assert all(b - a == step for a, b in zip(axis, axis[1:]))
        assert int(str(step).rstrip("0") or 0) in (1, 2, 5, 25)  # 1, 2, 2.5 or 5 times a power of ten


def test_missed_qwirkles_become_ghost_tiles() -> None:
    history = sample("weak-play.json")
    data = page_data(history, analyse(history))
    turn = data["turns"][52]  # turn 53: rd@1,-4 bd@2,-4 would have made a Qwirkle
    assert turn["ghost"] == [[2, 1, -4], [26, 2, -4]]  # red-diamond (2), blue-diamond (26)
    assert [code for code, _ in turn["fl"]] == ["missed-qwirkle"]


def test_a_score_sheet_has_no_board_and_unknown_racks() -> None:
    history = sample("score-sheet.json")
    data = page_data(history, analyse(history))
    assert data["board"] is False
    assert all(s["unseen"] is None for s in data["states"][1:])
    assert all(t["calc"] is None and t["claim"] is not None for t in data["turns"] if t["a"] == "place")
    assert data["states"][0]["racks"] == [[[], 6], [[], 6]]  # dealt: six tiles each, none known
    assert data["states"][10]["racks"] == [[[], None], [[], None]] and data["states"][10]["bag"] is None


def test_the_report_holds_the_page() -> None:
    record = loads((SAMPLES / "296-295.json").read_bytes())
    done = build(record, "296-295.json")
    html = done.files["game.html"].decode()
    assert html.startswith("<!DOCTYPE html>") and len(done.files["game.html"]) < 1_000_000
    data = json.loads(parts(html)["scripts"][0][1])
    assert data["title"] == "296-295.json" and data["turns"][-1]["tot"] == [295, 296]


def test_the_script_derives_no_tile_encoding_leader_or_differing_claim() -> None:
    script = (Path(__file__).parents[2] / "qwirkle_tools" / "web" / "viewer.js").read_text(encoding="utf-8")
    for derived in ("/ 6", "* 6", "% 6", 'split("-")', "Math.max(...totals)"):
        assert derived not in script, derived


def test_each_tile_comes_with_its_colour_and_shape_and_the_tracker_laid_out() -> None:
    from qwirkle_tools.core.tiles import COLOURS, SHAPES
    from qwirkle_tools.outputs.pictures import COLOUR_HEX

    history = sample("complete-2p.json")
    data = page_data(history, analyse(history))
    for t, tile in enumerate(TILES):
        assert data["tiles"][t] == f"{tile.colour}-{tile.shape}"
        assert data["shapes"][data["shape_of"][t]] == tile.shape
        assert data["colours"][data["colour_of"][t]] == COLOUR_HEX[COLOURS.index(tile.colour)]
    assert [[data["tiles"][t] for t in row] for row in data["grid"]] == [[f"{c}-{s}" for s in SHAPES] for c in COLOURS]


def test_each_position_names_its_sole_leader() -> None:
    history = sample("complete-2p.json")
    data = page_data(history, analyse(history))
    totals = [list(history.initial.scores), *(list(r.totals) for r in history.results)]
    for state, scores in zip(data["states"], totals, strict=True):
        ahead = [p for p, s in enumerate(scores) if s == max(scores)]
        assert state["leader"] == (ahead[0] if len(ahead) == 1 else None)
    leaders = [s["leader"] for s in data["states"]]
    assert leaders[0] is None and None in leaders[1:] and {0, 1} <= set(leaders)  # a tie at the start, and later
    # a lead change is where a sole leader takes over from another (a tie keeps the last one)
    last, changes = None, []
    for n, leader in enumerate(leaders):
        if leader is not None and leader != last:
            if last is not None:
                changes.append([n, leader])
            last = leader
    assert changes == data["lead"] and changes


def test_each_turn_says_whether_its_claim_differs() -> None:
    history = sample("wrong-scores.json")
    data = page_data(history, analyse(history))
    differs = [t["differs"] for t in data["turns"]]
    assert differs == [t["claim"] is not None and t["calc"] is not None and t["claim"] != t["calc"] for t in data["turns"]]
    assert any(differs) and not all(differs)
    sheet = page_data(sample("score-sheet.json"), analyse(sample("score-sheet.json")))
    assert not any(t["differs"] for t in sheet["turns"])  # no computed score: nothing to differ from


def test_a_turn_without_its_rack_draws_the_best_of_its_own_tiles_and_says_so() -> None:
    from qwirkle_tools.formats.qgn import parse_qgn

    text = "Players: Ana, Ben\n\n1. Ana rc@0,0 rx@1,0 rd@2,0 rt@3,0 4\n2. Ben rl@0,-1 2\n"
    history = replay(from_data(parse_qgn(text).data))
    data = page_data(history, analyse(history))
    best = data["turns"][1]["best"]
    assert (best["by"], best["text"], best["s"], best["gain"], best["pl"]) == ("same-tiles", "rl@-1,0", 5, 3, False)
    assert data["turns"][0]["best"]["pl"]  # turn 1 placed its four tiles as well as they go
    assert data["summary"][1]["same"] == [3, 1]
