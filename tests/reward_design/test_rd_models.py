"""Model plumbing without a network: sockets are blocked in every test here."""

import pytest
from rd_fixtures import no_sockets  # noqa: F401 - the fixture

from trackfield.reward_design import Comparison, ModelCallError, OpenAICompatible, prompts, two_stage
from trackfield.reward_design.models import parse_verdict
from trackfield.reward_design.testing import ScriptedGenerator, ScriptedJudge


@pytest.fixture(autouse=True)
def _offline(no_sockets):
    pass


def test_openai_compatible_error_names_endpoint():
    model = OpenAICompatible("http://127.0.0.1:9/v1", "m", api_key_env=None, timeout_s=1)
    with pytest.raises(ModelCallError) as err:
        model("hello")
    assert "http://127.0.0.1:9/v1/chat/completions" in str(err.value) and err.value.status is None
    with pytest.raises(ValueError, match="base_url"):
        OpenAICompatible("ftp://x", "m")


def test_openai_compatible_http_status(monkeypatch):
    import io
    import urllib.error
    import urllib.request

    def fail(request, timeout):
        raise urllib.error.HTTPError(request.full_url, 429, "Too Many Requests", {}, io.BytesIO(b""))

    monkeypatch.setattr(urllib.request, "urlopen", fail)
    with pytest.raises(ModelCallError) as err:
        OpenAICompatible("https://example.invalid/v1", "m")("hi")
    assert err.value.status == 429 and "example.invalid" in str(err.value)


def test_openai_compatible_sends_images_as_base64(monkeypatch, tmp_path):
    import io
    import json
    import urllib.request

    sent = {}

    class Reply(io.BytesIO):
        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

    def fake(request, timeout):
        sent["body"] = json.loads(request.data)
        return Reply(json.dumps({"choices": [{"message": {"content": "ok"}}]}).encode())

    monkeypatch.setattr(urllib.request, "urlopen", fake)
    (tmp_path / "a.png").write_bytes(b"\x89PNG")
    assert OpenAICompatible("https://x.invalid/v1", "m")("look", images=[str(tmp_path / "a.png")]) == "ok"
    content = sent["body"]["messages"][0]["content"]
    assert content[1]["image_url"]["url"].startswith("data:image/png;base64,iVBORw")


def test_two_stage_describes_each_clip_then_decides(tmp_path):
    strips, states = [], []
    for k in range(2):
        (tmp_path / f"s{k}.png").write_bytes(b"png")
        (tmp_path / f"s{k}.jsonl").write_text('{"progress": 1}\n')
        strips.append(str(tmp_path / f"s{k}.png"))
        states.append(str(tmp_path / f"s{k}.jsonl"))
    calls = []

    def describe(prompt, images):
        calls.append(("describe", images))
        return f"clip {len(calls)}"

    def decide(prompt):
        calls.append(("decide", prompt))
        return "B is cleaner.\nB"

    c = Comparison(strips_a=tuple(strips), strips_b=tuple(strips), states_a=tuple(states), states_b=tuple(states))
    assert two_stage(describe, decide)(c) == "B"
    assert [k for k, _ in calls] == ["describe"] * 4 + ["decide"]
    with pytest.raises(ValueError):
        parse_verdict("no idea")


def test_test_doubles_are_labelled():
    gen = ScriptedGenerator(["x = 1"])
    assert gen.is_test_double and "TEST DOUBLE" in (ScriptedGenerator.__doc__ or "")
    assert prompts.extract_code(gen("p")) == "x = 1\n"
    assert ScriptedJudge.is_test_double and "TEST DOUBLE" in ScriptedJudge.__doc__


def test_prompts_carry_the_api_and_rules():
    p = prompts.generation("win races cleanly")
    assert "class CarState" in p and "no other (helper) functions" in p and "win races cleanly" in p
    q = prompts.improvement("g", "code", "progress: 12.0", "too many wall hits")
    assert "change a weight" in q and "too many wall hits" in q
