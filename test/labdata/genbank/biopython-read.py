# Reads GenBank files with Biopython (Bio.SeqIO) and prints what it read as JSON: per record the name,
# bases, topology and every feature's type, location parts (0-based start, exclusive end, strand,
# partial marks) with the operator, and qualifiers. The GenBank tests compare this with our reader.
import json
import sys
import warnings

from Bio import SeqIO
from Bio.SeqFeature import AfterPosition, BeforePosition, CompoundLocation


def position_mark(position):
    if isinstance(position, BeforePosition):
        return "<"
    if isinstance(position, AfterPosition):
        return ">"
    return ""


def feature_of(feature):
    location = feature.location
    parts = location.parts
    return {
        "type": feature.type,
        "operator": location.operator if isinstance(location, CompoundLocation) else None,
        "parts": [
            [int(p.start), int(p.end), p.strand, position_mark(p.start), position_mark(p.end)] for p in parts
        ],
        "qualifiers": {key: list(values) for key, values in feature.qualifiers.items()},
    }


def main(paths):
    out = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for path in paths:
            out[path] = [
                {
                    "name": record.name,
                    "bases": str(record.seq).upper(),
                    "topology": record.annotations.get("topology"),
                    "features": [feature_of(f) for f in record.features],
                }
                for record in SeqIO.parse(path, "genbank")
            ]
    out["warnings"] = sorted({str(w.message) for w in caught})
    json.dump(out, sys.stdout)


main(sys.argv[1:])
