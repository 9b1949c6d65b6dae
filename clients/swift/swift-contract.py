"""The contract as swift-openapi-generator 1.14.3 can read it (#44).

That generator skips a `{"type": "null"}` branch (apple/swift-openapi-generator
#513 and #906), so a property written `oneOf: [{$ref: X}, {type: null}]`
(Kicked.ban) came out of the Swift types altogether, and decoding an answer
then failed on the unknown key. Here such a property becomes `{$ref: X}` and
is no longer required: the generated Swift property is `X?`, and Swift's
decodeIfPresent reads the server's `null` as nil. Nothing else changes; the
server's document (clients/openapi.json) stays the truth.

    python3 swift-contract.py < openapi.json > swift-openapi.json
"""
import json
import sys


def nullable_ref(schema):
    """The non-null branch of `oneOf`/`anyOf: [X, {type: null}]`, else None."""
    for key in ("oneOf", "anyOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and len(branches) == 2 and {"type": "null"} in branches:
            (other,) = [b for b in branches if b != {"type": "null"}]
            return other
    return None


def rewrite(node):
    if isinstance(node, list):
        for item in node:
            rewrite(item)
        return
    if not isinstance(node, dict):
        return
    properties = node.get("properties")
    if isinstance(properties, dict):
        for name, schema in properties.items():
            other = nullable_ref(schema) if isinstance(schema, dict) else None
            if other is not None:
                replaced = dict(other)
                if "description" in schema and "$ref" not in other:
                    replaced["description"] = schema["description"]
                properties[name] = replaced
                if name in node.get("required", []):
                    node["required"] = [r for r in node["required"] if r != name]
    for value in node.values():
        rewrite(value)


document = json.load(sys.stdin)
rewrite(document)
json.dump(document, sys.stdout, indent=2, sort_keys=True)
sys.stdout.write("\n")
