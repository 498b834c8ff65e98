"""Which build runs and what decides its skips (host/manifest.py): the package manifest, an editable
checkout's manifest, a manifest the user gives, and probing the runtime's API when there is none."""

from __future__ import annotations

import json
from importlib.metadata import PathDistribution
from pathlib import Path

import pytest

from oa_conformance.frontends.cli.oa_conformance import main as cli
from oa_conformance.host import manifest
from oa_conformance.interpreter.running.features import table_proposals

from .test_run import LINEAR, only_result, write_fixture

pytest_plugins = ["pytester"]

OWN_MANIFEST = '[manifest]\nimplementation = "openarmature-python"\n'


@pytest.fixture(autouse=True)
def fresh_choice():
    """Each test chooses afresh, and leaves the process judging the installed build again."""
    manifest.use_runtime_manifest(None)
    yield
    manifest.use_runtime_manifest(None)


def write_manifest(path: Path, statuses: dict[str, str], header: str = OWN_MANIFEST, extra: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "".join(f'[proposals."{n}"]\nstatus = "{s}"\n' for n, s in statuses.items())
    path.write_text(header + extra + body, encoding="utf-8")
    return path


def sessions_case(tmp_path: Path):
    """A plain graph in a sessions/ directory: it needs proposal 0020 (the directory's proposal),
    and passes whenever it runs."""
    return write_fixture(tmp_path, LINEAR.read_text(), capability="sessions")


# ---- the package manifest (the installed wheel) -----------------------------------------------

def test_the_installed_wheel_ships_its_manifest_and_capabilities():
    chosen = manifest.use_runtime_manifest(None)
    assert chosen.source == manifest.PACKAGE and chosen.path.endswith("openarmature/conformance.toml")
    assert manifest.runtime_build().kind == "wheel" and manifest.runtime_build().version == "0.17.0"
    assert manifest.proposal_status("0020") == ("not-shipped", "status not-yet in openarmature's conformance.toml")
    assert manifest.adapter_capability("langfuse_bound_provider_detection") is True
    assert manifest.adapter_capability("no_such_capability") is None


def test_every_proposal_a_fixture_can_need_has_a_probe():
    assert table_proposals() == set(manifest.PROBES)


def test_each_probe_agrees_with_the_installed_runtimes_own_manifest():
    """The probes are calibrated on the real runtime: what they find is what its manifest says."""
    statuses = manifest.chosen_manifest().statuses
    for number, probe in manifest.PROBES.items():
        result = probe()
        assert result.ships is not None, (number, result)
        assert result.ships == (manifest.MANIFEST_STATES[statuses[number]] == manifest.SHIPPED), (number, result)


def test_a_case_needing_a_not_yet_proposal_is_a_recognized_skip_naming_it(tmp_path):
    result = only_result(sessions_case(tmp_path))
    assert result.outcome == "skipped"
    assert result.reason == "the runtime does not ship proposal 0020 (sessions): status not-yet in openarmature's conformance.toml"


# ---- an editable checkout ---------------------------------------------------------------------

def fake_editable_install(tmp_path: Path, monkeypatch, statuses: dict[str, str] | None, header: str = OWN_MANIFEST) -> Path:
    """An `openarmature` installed editable from tmp_path/checkout (src/ layout): its dist-info in
    a site-packages with PEP 610's direct_url.json, its package in the checkout, no manifest inside."""
    checkout = tmp_path / "checkout"
    package = checkout / "src" / "openarmature"
    package.mkdir(parents=True)
    info = tmp_path / "site-packages" / "openarmature-9.9.9.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: openarmature\nVersion: 9.9.9\n")
    (info / "direct_url.json").write_text(json.dumps({"url": checkout.as_uri(), "dir_info": {"editable": True}}))
    if statuses is not None:
        write_manifest(checkout / "conformance.toml", statuses, header)
    monkeypatch.setattr(manifest, "_package_dir", lambda: package)
    monkeypatch.setattr(manifest, "_distribution", lambda: PathDistribution(info))
    return checkout


def test_an_editable_checkout_is_judged_by_the_manifest_at_its_root(tmp_path, monkeypatch):
    checkout = fake_editable_install(tmp_path, monkeypatch, {"0020": "implemented", "0062": "not-yet"})
    chosen = manifest.use_runtime_manifest(None)
    assert (chosen.source, chosen.path) == (manifest.CHECKOUT, str(checkout / "conformance.toml"))
    assert manifest.runtime_build() == manifest.Build("9.9.9", "editable", str(checkout))
    assert manifest.proposal_status("0020").state == manifest.SHIPPED
    assert manifest.proposal_status("0062") == ("not-shipped", "status not-yet in the checkout's conformance.toml")
    runtime, proposals = manifest.header_lines()
    assert runtime == f"runtime: openarmature 9.9.9, editable checkout {checkout}"
    assert proposals.startswith(f"proposals: checkout manifest {checkout / 'conformance.toml'}; not shipped: 0021 0022 0023 0037 0038 0056 0062;")
    # the manifest names neither 0021 nor the others: their probes decide, and the header says so
    assert proposals.endswith("probed where it gives no status: 0021 0022 0023 0037 0038 0056")
    assert manifest.proposal_status("0021").evidence.startswith("the checkout's conformance.toml gives no status; probe: no module")


def test_a_checkout_is_found_from_the_package_path_without_direct_url(tmp_path, monkeypatch):
    checkout = fake_editable_install(tmp_path, monkeypatch, {"0020": "not-yet"})
    (tmp_path / "site-packages" / "openarmature-9.9.9.dist-info" / "direct_url.json").unlink()
    monkeypatch.setattr(manifest, "_distribution", lambda: None)  # a source tree on sys.path
    chosen = manifest.use_runtime_manifest(None)
    assert (chosen.source, chosen.path) == (manifest.CHECKOUT, str(checkout / "conformance.toml"))
    assert manifest.runtime_build() == manifest.Build(None, "source", str(checkout / "src"))


def test_another_projects_conformance_toml_is_not_the_runtimes(tmp_path, monkeypatch):
    fake_editable_install(tmp_path, monkeypatch, {"0020": "implemented"}, header='[manifest]\nimplementation = "openarmature-typescript"\n')
    assert manifest.use_runtime_manifest(None).source == manifest.PROBING


def test_a_conformance_toml_above_site_packages_is_never_taken(tmp_path, monkeypatch):
    """A wheel whose venv sits inside some checkout is judged by probing, not by that checkout."""
    venv_site = tmp_path / "checkout" / ".venv" / "site-packages"
    (venv_site / "openarmature").mkdir(parents=True)
    write_manifest(tmp_path / "checkout" / ".venv" / "conformance.toml", {"0020": "implemented"})
    monkeypatch.setattr(manifest, "_package_dir", lambda: venv_site / "openarmature")
    monkeypatch.setattr(manifest, "_distribution", lambda: None)
    assert manifest.use_runtime_manifest(None).source == manifest.PROBING


def test_an_editable_checkout_without_a_manifest_is_probed(tmp_path, monkeypatch):
    fake_editable_install(tmp_path, monkeypatch, None)
    assert manifest.use_runtime_manifest(None).source == manifest.PROBING
    assert manifest.header_lines()[1].startswith("proposals: probing the runtime's public API")


# ---- a manifest the user gives ----------------------------------------------------------------

def test_a_given_manifest_decides_the_skips(tmp_path, capsys):
    """The same case: skipped by the wheel's manifest, run (and passed) by a manifest that says the
    build ships sessions, skipped again by one that says not-yet or names no status (then probed)."""
    ref = sessions_case(tmp_path)
    root = str(tmp_path / "spec")
    given = write_manifest(tmp_path / "given.toml", {"0020": "implemented"})
    report = tmp_path / "report.json"
    assert cli(["run", root, "--runtime-manifest", str(given), "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert f"proposals: the given runtime manifest {given} (in place of " in out
    (case,) = json.loads(report.read_text())["cases"]
    assert case["outcome"] == "passed"
    host = json.loads(report.read_text())["host"]
    assert host["proposals_from"]["source"] == "user" and host["proposals_from"]["path"] == str(given)
    assert host["installed"]["kind"] == "wheel" and host["proposals"]["0020"]["state"] == "shipped"

    write_manifest(given, {"0020": "not-yet"})
    assert cli(["run", root, "--runtime-manifest", str(given)]) == 0  # not -q: it hides the skip's reason
    assert "status not-yet in the given runtime manifest" in capsys.readouterr().out
    write_manifest(given, {"0001": "implemented"})
    assert cli(["run", root, "--runtime-manifest", str(given)]) == 0  # not -q: it hides the skip's reason
    assert ("proposal 0020 (sessions): the given runtime manifest gives no status; probe: no module openarmature.sessions"
            in capsys.readouterr().out)
    assert Path(ref.path).exists()


@pytest.mark.parametrize("text,problem", [
    (None, "cannot read it: No such file or directory"),
    ("[proposals\n", "not TOML"),
    ('[manifest]\nimplementation = "other"\n[proposals."0020"]\nstatus = "implemented"\n', "implementation = 'other' is not openarmature's"),
    ('[manifest]\nimplementation = "openarmature-python"\n', "no [proposals] table"),
    ('[proposals."0020"]\nnote = "x"\n', '[proposals."0020"] has no status'),
    ('[proposals."0020"]\nstatus = "implemented"\n[adapter_capabilities]\nx = "yes"\n', "values must be true or false"),
])
def test_a_given_manifest_that_cannot_be_read_is_a_usage_error(tmp_path, capsys, text, problem):
    given = tmp_path / "given.toml"
    if text is not None:
        given.write_text(text)
    write_fixture(tmp_path, LINEAR.read_text())
    assert cli(["run", str(tmp_path / "spec"), "--runtime-manifest", str(given)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"oa-conformance: --runtime-manifest {given}: ") and problem in err


def test_the_pytest_plugin_takes_a_runtime_manifest(pytester, tmp_path):
    sessions_case(tmp_path)
    given = write_manifest(tmp_path / "given.toml", {"0020": "implemented"})
    root = f"--oa-spec-root={tmp_path / 'spec'}"
    result = pytester.runpytest("-p", "no:cacheprovider", root, f"--oa-runtime-manifest={given}")
    result.assert_outcomes(passed=1)
    assert f"oa-conformance proposals: the given runtime manifest {given}" in result.stdout.str()
    result = pytester.runpytest("-p", "no:cacheprovider", root)
    result.assert_outcomes(skipped=1)
    assert "oa-conformance runtime: openarmature 0.17.0, wheel installed in" in result.stdout.str()
    result = pytester.runpytest("-p", "no:cacheprovider", root, f"--oa-runtime-manifest={tmp_path / 'none.toml'}")
    assert "oa-conformance: --oa-runtime-manifest " in result.stderr.str() and result.ret == pytest.ExitCode.USAGE_ERROR


# ---- probing ----------------------------------------------------------------------------------

@pytest.fixture
def probing(monkeypatch):
    """A build that ships no manifest anywhere (0.16.0): the probes decide."""
    monkeypatch.setattr(manifest, "_discovered", lambda: manifest.Manifest(manifest.PROBING, None))
    manifest.use_runtime_manifest(None)
    return lambda number, probe: monkeypatch.setitem(manifest.PROBES, number, probe)


def test_probing_a_build_without_a_manifest_skips_naming_the_proposal(tmp_path, probing):
    probing("0020", lambda: manifest.Probe(False, "no module openarmature.sessions"))
    result = only_result(sessions_case(tmp_path))
    assert result.outcome == "skipped"
    assert result.reason == ("the runtime does not ship proposal 0020 (sessions): "
                             "no conformance manifest; probe: no module openarmature.sessions")


def test_probing_a_build_that_ships_the_proposal_runs_the_case(tmp_path, probing):
    probing("0020", lambda: manifest.Probe(True, "found module openarmature.sessions"))
    result = only_result(sessions_case(tmp_path))
    assert result.outcome == "passed" and result.notes == ()


@pytest.mark.parametrize("probe", [lambda: manifest.Probe(None, "importing openarmature.sessions raised RuntimeError: boom"),
                                   lambda: 1 / 0])
def test_an_undetermined_status_runs_the_case_and_says_so(tmp_path, probing, capsys, probe):
    """Neither a skip nor a silent pass: the case runs, carries a note naming the proposal, and the
    run warns even under -q."""
    probing("0020", probe)
    sessions_case(tmp_path)
    report = tmp_path / "report.json"
    assert cli(["run", str(tmp_path / "spec"), "-q", "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("warning: proposal 0020: status undetermined (no conformance manifest; probe: ")
    (case,) = json.loads(report.read_text())["cases"]
    assert case["outcome"] == "passed"
    assert case["notes"][0].startswith("proposal 0020 (sessions) status undetermined: no conformance manifest; probe: ")


def test_the_real_probes_on_a_build_without_a_manifest(tmp_path, probing):
    """0.17.0's API through the probes alone: the same skips its manifest gives."""
    result = only_result(sessions_case(tmp_path))
    assert result.reason.endswith("no conformance manifest; probe: no module openarmature.sessions")
    header = manifest.header_lines()[1]
    assert header == ("proposals: probing the runtime's public API (the build ships no conformance.toml); "
                      "not shipped: 0020 0021 0022 0023 0037 0038 0056 0062")
