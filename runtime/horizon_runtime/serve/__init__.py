"""Ray Serve inference backend: one Serve application per runtime group, each a deployment that hosts
the local worker's own Worker (adapters, model store, protocol payloads) behind the same HTTP protocol
(docs/runtime-protocol.md) under the route prefix /<group>. deploy/README.md, "Ray Serve inference".
"""
