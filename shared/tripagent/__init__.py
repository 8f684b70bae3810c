"""Tripagent: the code every Lambda function shares.

Layers, inside out: ``domain`` (pure Python), ``application`` (use cases taking ports), ``adapters``
(AWS, Valhalla, model providers), ``entrypoints`` (HTTP and event handlers). ``bootstrap`` wires them.
"""
