"""Pluggable model calls. A generator is ``Callable[[str], str]`` (prompt -> reply), a
judge ``Callable[[Comparison], "A" | "B"]``, human feedback ``Callable[[str], str]``.
:class:`OpenAICompatible` wraps any ``/chat/completions`` endpoint with the standard
library; nothing model-related is bundled."""
from __future__ import annotations

import base64
import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass, field


class ModelCallError(RuntimeError):
    """A model endpoint call failed; ``endpoint`` and ``status`` (None without a reply) say where and how."""

    def __init__(self, message, endpoint, status=None):
        super().__init__(f"{message} (endpoint {endpoint}, status {status})")
        self.endpoint, self.status = endpoint, status


@dataclass(frozen=True)
class Comparison:
    """Two agents' clips for a judge: the side-by-side mp4s (A left; ``clips_a`` and
    ``clips_b`` list the same files), each side's frame-strip PNGs and per-frame state
    files (JSON lines), and the variable table of ``api_doc()``."""

    clips_a: tuple = ()
    clips_b: tuple = ()
    strips_a: tuple = ()
    strips_b: tuple = ()
    states_a: tuple = ()
    states_b: tuple = ()
    variables: str = ""
    goal: str = ""
    extra: dict = field(default_factory=dict)


class OpenAICompatible:
    """``model(prompt, images=())`` -> text over an OpenAI-compatible endpoint:
    POST ``{base_url}/chat/completions``, images (PNG paths or bytes) as base64 data
    URLs, the key from the environment variable ``api_key_env`` (none if unset)."""

    def __init__(self, base_url: str, model: str, api_key_env: str | None = "OPENAI_API_KEY",
                 timeout_s: float = 120.0, temperature: float = 1.0):
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must be an http(s) URL, got {base_url!r}")
        self.endpoint = base_url.rstrip("/") + "/chat/completions"
        self.model, self.api_key_env, self.timeout_s, self.temperature = model, api_key_env, timeout_s, temperature

    def __call__(self, prompt: str, images=()) -> str:
        content = [{"type": "text", "text": prompt}]
        for image in images:
            data = image if isinstance(image, bytes) else open(image, "rb").read()
            url = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
            content.append({"type": "image_url", "image_url": {"url": url}})
        body = json.dumps({"model": self.model, "temperature": self.temperature,
                           "messages": [{"role": "user", "content": content if images else prompt}]}).encode()
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        if key:
            headers["Authorization"] = f"Bearer {key}"
        request = urllib.request.Request(self.endpoint, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as reply:
                doc = json.loads(reply.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            raise ModelCallError(f"the endpoint answered {exc.code} {exc.reason}", self.endpoint, exc.code) from exc
        except (urllib.error.URLError, OSError, TimeoutError) as exc:
            raise ModelCallError(f"no reply: {exc}", self.endpoint) from exc
        except json.JSONDecodeError as exc:
            raise ModelCallError(f"the reply is not JSON: {exc}", self.endpoint, 200) from exc
        try:
            return doc["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            raise ModelCallError(f"the reply has no choices[0].message.content: {str(doc)[:200]}",
                                 self.endpoint, 200) from exc


def two_stage(describe, decide):
    """A judge in the paper's two stages: ``describe(prompt, images)`` once per clip of
    each agent, then ``decide(prompt)`` once over all the descriptions; returns "A" or "B"."""
    from trackfield.reward_design import prompts

    def judge(comparison: Comparison) -> str:
        notes = {}
        for side in ("a", "b"):
            strips = getattr(comparison, f"strips_{side}")
            states = getattr(comparison, f"states_{side}")
            notes[side] = [describe(prompts.describe_clip(comparison.variables, _read(states[k]) if k < len(states) else ""),
                                    [strip]) for k, strip in enumerate(strips)]
        verdict = decide(prompts.decide(comparison.goal, notes["a"], notes["b"]))
        return parse_verdict(verdict)

    return judge


def parse_verdict(text: str) -> str:
    """"A" or "B" from a judge's reply (its last line naming one); ValueError otherwise."""
    for line in reversed(str(text).strip().splitlines()):
        word = line.strip().strip(".*:").upper()
        if word.endswith(" A") or word == "A":
            return "A"
        if word.endswith(" B") or word == "B":
            return "B"
    raise ValueError(f"the judge's reply names neither A nor B: {str(text)[-200:]!r}")


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def ask_human(prompt: str) -> str:
    """Default human feedback: ``input()``."""
    return input(prompt)
