"""Scenario files shipped with trackfield, one subpackage per domain."""
