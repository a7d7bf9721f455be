"""AYON's small helpers addons import from `ayon_server.utils`: hashing, JSON, strings, dict paths."""

__all__ = [
    "EntityID",
    "SQLTool",
    "batched",
    "camelize",
    "create_hash",
    "create_uuid",
    "dict_exclude",
    "dict_patch",
    "dict_remove_path",
    "format_filesize",
    "get_base_name",
    "get_nickname",
    "hash_data",
    "indent",
    "json_dumps",
    "json_loads",
    "json_print",
    "now",
    "obscure",
    "slugify",
]

from .dicts import batched, dict_exclude, dict_patch, dict_remove_path, now
from .entity_id import EntityID
from .hashing import create_hash, create_uuid, hash_data
from .json import json_dumps, json_loads, json_print
from .sqltool import SQLTool
from .strings import camelize, format_filesize, get_base_name, get_nickname, indent, obscure, slugify
