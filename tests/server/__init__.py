"""Tests of the browser table's server: protocol, leaks, crashes, fair dice."""
