"""String helpers AYON (and the old nxtools) offer addons."""

import re
import unicodedata
from typing import Any

from ayon_server.types import camelize

__all__ = ["camelize", "format_filesize", "get_base_name", "get_nickname", "indent", "obscure", "slugify"]


def get_base_name(file_path: str) -> str:
    """The file name without directory and extension."""
    name = re.split(r"[\\/]", str(file_path))[-1]
    return name.rsplit(".", 1)[0] if "." in name else name


def format_filesize(size: int) -> str:
    amount = float(size)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if amount < 1024 or unit == "TB":
            return f"{amount:.0f} {unit}" if unit == "B" else f"{amount:.1f} {unit}"
        amount /= 1024
    return f"{size} B"


def get_nickname(text: str, length: int = 1) -> str:
    """A stable, readable pseudonym for `text` (AYON uses codenamize; any stable words will do)."""
    import hashlib

    words = ["amber", "brisk", "cedar", "dawn", "ember", "fable", "grove", "harbor", "iris", "jade", "kelp", "lumen",
             "maple", "nova", "opal", "pine", "quartz", "river", "sage", "tide", "umber", "vale", "willow",
             "zephyr"]  # fmt: skip
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "-".join(words[digest[i] % len(words)] for i in range(length + 1))


def indent(text: str, amount: int = 4) -> str:
    padding = " " * amount
    return "\n".join(padding + line for line in text.splitlines())


def obscure(text: str) -> str:
    """Everything but spaces hidden: what a log may show of a secret."""
    return re.sub(r"\S", "*", text)


def slugify(
    input_string: Any,
    separator: str = "-",
    lower: bool = True,
    make_set: bool = False,
    min_length: int = 1,
    slug_whitelist: str = "abcdefghijklmnopqrstuvwxyz0123456789",
    split_chars: str = r" ,./\;:!|*^#@~+-_=",
) -> Any:
    """ASCII words of `input_string` joined by `separator` ("Černý kůň" -> "cerny-kun"); with make_set, the set of
    the words of at least min_length characters."""
    text = unicodedata.normalize("NFKD", str(input_string)).encode("ascii", "ignore").decode("ascii")
    if lower:
        text = text.lower()
    allowed = slug_whitelist if lower else slug_whitelist + slug_whitelist.upper()
    splitters = set(split_chars)
    words, current = [], []
    for char in text:
        if char in allowed:
            current.append(char)
        elif char in splitters or char.isspace():
            if current:
                words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    if make_set:
        return {word for word in words if len(word) >= min_length}
    return separator.join(words)
