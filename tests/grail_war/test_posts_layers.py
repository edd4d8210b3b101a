"""The board-layer cache (issue 15, speed): the static map layers are drawn once per board and
read back on later turns; the pictures are byte-identical with or without the cache, and a
damaged or unsafe cache is never used."""

from __future__ import annotations

import copy
import os

import pytest

from gm_tool.rulesets.grail_war import RULESET, picture
from tests.regen_golden import SCENARIO


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(picture.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.delenv("GM_NO_LAYER_CACHE", raising=False)
    return tmp_path / f"gm-tool-layers-{os.getuid()}"


def _state():
    return RULESET.setup(copy.deepcopy(SCENARIO), "<s>", "layers")


def _pictures(state):
    return RULESET.posts(state, state, [], "zh").files


def test_cached_layers_give_the_same_bytes(cache, monkeypatch):
    s = _state()
    cold = _pictures(s)
    assert len(list(cache.glob("*.png"))) == 1
    warm = _pictures(s)
    monkeypatch.setenv("GM_NO_LAYER_CACHE", "1")
    assert cold == warm == _pictures(s)


def test_a_changed_board_is_drawn_anew(cache):
    s = _state()
    _pictures(s)
    closed = copy.deepcopy(s)
    closed["closed_cells"] = ["E2"]
    assert _pictures(closed)["map-public.png"] != _pictures(s)["map-public.png"]
    assert len(list(cache.glob("*.png"))) == 2


def test_a_damaged_cache_file_is_a_miss(cache, monkeypatch):
    s = _state()
    good = _pictures(s)
    png = next(cache.glob("*.png"))
    png.write_bytes(png.read_bytes()[:50])
    assert _pictures(s) == good
    meta = next(cache.glob("*.json"))
    meta.write_text("{not json", "utf-8")
    assert _pictures(s) == good


def test_an_unsafe_cache_folder_is_not_used(cache):
    cache.mkdir(mode=0o777)
    os.chmod(cache, 0o777)
    _pictures(_state())
    assert not list(cache.glob("*.png"))
