"""Entry point.

    python3 -m pipewright_ayon_host                      serve the Pipewright server over stdin/stdout
    python3 -m pipewright_ayon_host extract <directory> [<anatomy.json>]
                                                         print one package's description, schema and defaults
                                                         (enums from that primary anatomy when one is given)

Either way stdout is taken first, so nothing an addon prints can reach it: the log is stderr."""

import asyncio
import sys

from .stdio import take_stdout_for_frames


def main(arguments: list[str]) -> int:
    output = take_stdout_for_frames()

    if arguments[:1] == ["extract"]:
        if len(arguments) not in (2, 3):
            sys.stderr.write("usage: python3 -m pipewright_ayon_host extract <addon-directory> [<anatomy.json>]\n")
            return 2
        import json

        from .errors import error_answer
        from .extract import extract, write_json

        try:
            anatomy = json.loads(open(arguments[2], encoding="utf-8").read()) if len(arguments) == 3 else None
            document = asyncio.run(extract(arguments[1], anatomy))
        except BaseException as error:  # noqa: BLE001 - report any failure as the answer the server reads
            write_json(output, {"error": error_answer(error, what=f"extract {arguments[1]}")})
            return 1
        write_json(output, document)
        return 0

    if arguments:
        sys.stderr.write("usage: python3 -m pipewright_ayon_host [extract <addon-directory>]\n")
        return 2
    from .serve import serve

    asyncio.run(serve(output))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
