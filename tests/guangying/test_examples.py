"""The example sheets (orders/guangying/) still give the committed posts (reports/guangying/)."""

from tests.guangying.make_examples import ORDERS, REPORTS, play


def test_examples_replay_to_the_committed_posts(tmp_path):
    """seed l.38: "措手不及：如果从敌人身周1身位格经过，会被强制受到敌人带队者的瞬间普通攻击。" (told in turn 3's post)"""
    template = play(tmp_path / "c")
    got = sorted(p.relative_to(tmp_path / "c" / "reports") for p in (tmp_path / "c" / "reports").rglob("*") if p.is_file())
    want = sorted(p.relative_to(REPORTS) for p in REPORTS.rglob("*") if p.is_file())
    assert got == want
    for rel in want:
        assert (tmp_path / "c" / "reports" / rel).read_bytes() == (REPORTS / rel).read_bytes(), str(rel)
    assert template == (ORDERS / "template-next.yaml").read_text("utf-8")
    assert "措手不及" in (REPORTS / "turn-003" / "public.md").read_text("utf-8")
