"""The example scripts run end to end."""

import subprocess
import sys

from conftest import ROOT


def test_maxq_agent_trains_and_reports(tmp_path):
    out = tmp_path / "best.dojo"
    result = subprocess.run(
        [sys.executable, str(ROOT / "python/examples/maxq_agent.py"),
         "kernels/small/softmax.dojo", "--synthetic", "--episodes", "4",
         "--max-steps", "8", "--minutes", "2", "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "episode 4:" in result.stdout
    assert "best program:" in result.stdout
    assert out.read_text().startswith("x f32 [9, 16] heap in\n")
