"""`atlas-build import` and the claims.yaml beside the record: copied when the target has
none (and the copied claims pass on the imported lesson), never overwriting the author's."""

from __future__ import annotations

import json
import os
from pathlib import Path

from atlas_build import pipeline

REPO = Path(__file__).resolve().parent.parent
ATTENTION = REPO / "content" / "attention"


def test_import_copies_the_claims_beside_the_record_and_they_pass(run_cli, tmp_path):
    target = tmp_path / "content" / "attention"
    result = run_cli("import", ATTENTION / "record.json", "--to", target)
    assert result.code == 0, result.err
    assert sorted(os.listdir(target)) == ["claims.yaml", "lesson.md"]
    assert (target / "claims.yaml").read_bytes() == (ATTENTION / "claims.yaml").read_bytes()
    assert f"copied {ATTENTION / 'claims.yaml'} to {target / 'claims.yaml'}" in result.out
    assert f"run `atlas-build check {target}`" in result.out
    report, _ = pipeline.check([str(target)], pipeline.Options())
    [record] = report.records
    statuses = {claim["id"]: claim["status"] for claim in record.claims}
    original = (ATTENTION / "claims.yaml").read_text(encoding="utf-8")
    assert len(statuses) == original.count("  - id: ") and set(statuses.values()) == {"pass"}
    assert not [d for d in record.diagnostics if d.severity.value == "error"]


def test_import_keeps_a_claims_file_the_target_already_has(run_cli, tmp_path):
    target = tmp_path / "attention"
    target.mkdir()
    mine = b"claims: []\n"
    (target / "claims.yaml").write_bytes(mine)
    result = run_cli("import", ATTENTION / "record.json", "--to", target)
    assert result.code == 0, result.err
    assert (target / "claims.yaml").read_bytes() == mine
    assert f"note: {target / 'claims.yaml'} exists and differs from" in result.out
    assert "kept it" in result.out and "compare the two files" in result.out


def test_reimporting_says_the_claims_are_already_there(run_cli, tmp_path):
    target = tmp_path / "attention"
    assert run_cli("import", ATTENTION / "record.json", "--to", target).code == 0
    again = run_cli("import", ATTENTION / "record.json", "--to", target, "--force")
    assert again.code == 0
    assert f"{target / 'claims.yaml'} is already the same as" in again.out
    assert "note" not in again.out


def test_claims_beside_a_loose_record_file_are_named_not_copied(run_cli, tmp_path, seed):
    """`records/attention.json` beside `records/claims.yaml`: a folder of records may share
    one claims file among several lessons, so it is not taken as this lesson's."""
    records = tmp_path / "records"
    records.mkdir()
    (records / "attention.json").write_text(json.dumps(seed), encoding="utf-8")
    (records / "claims.yaml").write_bytes((ATTENTION / "claims.yaml").read_bytes())
    result = run_cli("import", records / "attention.json", "--to", tmp_path / "out")
    assert result.code == 0, result.err
    assert sorted(os.listdir(tmp_path / "out")) == ["lesson.md"]
    assert f"note: {records / 'claims.yaml'} was not copied" in result.out
    assert "attention.json is not a lesson folder's record.json" in result.out


def test_a_record_without_claims_imports_alone(run_cli, tmp_path, seed):
    folder = tmp_path / "published" / "attention"
    folder.mkdir(parents=True)
    (folder / "record.json").write_text(json.dumps(seed), encoding="utf-8")
    result = run_cli("import", folder / "record.json", "--to", tmp_path / "out")
    assert result.code == 0, result.err
    assert sorted(os.listdir(tmp_path / "out")) == ["lesson.md"]
    assert result.out.splitlines() == [f"wrote {tmp_path / 'out' / 'lesson.md'}"]
