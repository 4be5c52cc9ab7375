"""Reward design for trackfield's racing domain, after "Automated Reward Design for Gran
Turismo": a typed race state (:class:`CarState`, :class:`Course`) that reward files are
written against, checks that a file runs, recorded trajectories re-scored without
simulating, the trajectory alignment coefficient (TAC) with stored preferences,
Bradley-Terry ranking, and pluggable model calls. Test doubles live in
``trackfield.reward_design.testing``. See docs/reward_design.md.
"""
import os

from trackfield.reward_design.alignment import (BradleyTerry, PreferenceSet, Window, all_pairs, bradley_terry,
                                                tac, tac_accuracy, top_n, tune_weights, window_returns)
from trackfield.reward_design.check import CheckResult, check_runnable, sample_course, sample_state_pairs
from trackfield.reward_design.models import Comparison, ModelCallError, OpenAICompatible, two_stage
from trackfield.reward_design.program import RewardFileError, RewardProgram, load_reward
from trackfield.reward_design.state import CarState, Course, api_doc, api_source, course_of, course_of_env
from trackfield.reward_design.trajectory import (Trajectory, TrajectoryRecorder, load_trajectory, replay, rescore)
from trackfield.reward_design import prompts
from trackfield.reward_design.clips import export_clips
from trackfield.reward_design.diagnostics import DiagnosticsCallback, correlation_runs, evaluate, play

PRESETS = os.path.join(os.path.dirname(__file__), "presets")


def preset(name: str) -> str:
    """Path of a shipped reward file: "gt7_baseline" or "gt_sophy"."""
    path = os.path.join(PRESETS, f"{name}.py")
    if not os.path.isfile(path):
        raise ValueError(f"no preset {name!r}; presets: gt7_baseline, gt_sophy")
    return path


__all__ = ["CarState", "Course", "api_source", "api_doc", "course_of", "course_of_env", "load_reward",
           "RewardProgram", "RewardFileError", "check_runnable", "CheckResult", "sample_state_pairs",
           "sample_course", "Trajectory", "TrajectoryRecorder", "load_trajectory", "rescore", "replay",
           "PreferenceSet", "Window", "tac", "top_n", "tac_accuracy", "all_pairs", "bradley_terry", "BradleyTerry",
           "tune_weights", "window_returns", "OpenAICompatible", "ModelCallError", "Comparison", "two_stage",
           "prompts", "preset", "PRESETS", "export_clips", "DiagnosticsCallback", "evaluate", "correlation_runs",
           "play"]
