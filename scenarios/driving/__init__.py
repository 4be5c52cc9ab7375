"""Driving scenarios (town, agents, routes): arrive with the driving domain."""
