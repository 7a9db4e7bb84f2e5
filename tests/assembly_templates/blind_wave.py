"""A blind wave of services' traffic (tests/assembly_templates/blind/<wave>/, written by a helper who had not
read the reader) sent through a real ``openai`` client under OpenInference and openai-v2, read as the
scheduler reads it (:mod:`streams`), per service: right / wrong context / unscored.

    python tests/assembly_templates/blind_wave.py [WAVE] [--rules-only | --learnt-only] [--built] [-v]
"""

from __future__ import annotations

import sys
from collections import Counter

from streams import FAMILIES, Verdict, blind_streams, run


def main() -> None:
    arguments = [a for a in sys.argv[1:] if not a.startswith("-")]
    wave = arguments[0] if arguments else "wave_a"
    mode = "rules-only" if "--rules-only" in sys.argv else "learnt-only" if "--learnt-only" in sys.argv else "learnt+rules"
    outcomes = run(blind_streams(wave), mode, live="--built" not in sys.argv)
    print(f"{wave}, {mode}: right / wrong context / unscored")
    counts = Counter((o.service, o.family, o.verdict) for o in outcomes)
    for service in dict.fromkeys(o.service for o in outcomes):
        cells = [
            f"{family}: " + "/".join(str(counts[(service, family, v)]) for v in Verdict) for family in FAMILIES
        ]
        print(f"  {service:26} " + "   ".join(cells))
    totals = Counter(o.verdict for o in outcomes)
    print("  total:", ", ".join(f"{totals[v]} {v.value}" for v in Verdict), f"of {len(outcomes)}")
    if "-v" in sys.argv:
        for o in outcomes:
            if o.verdict is not Verdict.RIGHT:
                print("  ", o.verdict.value, o.family, o.service, o.detail[:600])


if __name__ == "__main__":
    main()
