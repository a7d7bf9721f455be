#!/usr/bin/env python3
"""Record which input constraints AYON's server applies to each request, route by route.

Pipewright must not be stricter than AYON about what a request may contain. This script reads the AYON
backend's source (a git mirror, at a pinned commit) with Python's `ast` module, without importing or running it,
maps every REST route to its parameters and request body model, and writes the constraints it finds as facts:
that a pattern exists (never its text), enum values, length, number and item bounds, and which fields exist
without any constraint ({}). Where a model cannot be resolved statically, the route (or the part of its body)
is listed as unresolved instead of guessed. The output is a description of AYON's wire contract, not its code.

Regenerate (Python 3 standard library only):

    python3 scripts/ayon-request-constraints.py \
        [--repo /work/.mirror/ynput+ayon-backend/repo] [--commit 288edd7] \
        [--out core/test/fixtures/ayon-request-constraints.json]

Field paths: `path.x`, `query.x`, `body.x`, `body.x.y` (nested model), `body.x[]` (list items),
`body.x.*` (dictionary values). Body names are the wire names (camelCase where AYON's model camelizes).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path as FsPath

HTTP_METHODS = {"get", "post", "put", "patch", "delete"}
FIELD_FACTORIES = {"Field", "RestField", "SettingsField"}
PARAM_MARKERS = {"Path", "Query", "Body", "Header", "Cookie", "Depends", "Form", "File"}
# Pydantic keyword -> JSON Schema keyword. `regex` is recorded only as "a pattern exists".
BOUNDS = {
    "min_length": "minLength",
    "max_length": "maxLength",
    "ge": "minimum",
    "gt": "exclusiveMinimum",
    "le": "maximum",
    "lt": "exclusiveMaximum",
    "min_items": "minItems",
    "max_items": "maxItems",
}
ITEM_BOUNDS = {"minItems", "maxItems"}
MAX_DEPTH = 6
ENTITY_ID_META: dict = {}
ATTRIBUTE_SCOPES = {
    "p": "project", "u": "user", "f": "folder", "t": "task", "s": "product",
    "v": "version", "r": "representation", "w": "workfile", "l": "list",
}


# ---------------------------------------------------------------------------------------------------------------
# Reading the source tree


def read_tree(repo: str, commit: str) -> dict[str, str]:
    """Every Python file under api/, ayon_server/ and setup/ at the commit, by path."""
    names = subprocess.run(
        ["git", "-C", repo, "ls-tree", "-r", "--name-only", commit],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    wanted = [n for n in names if n.endswith(".py") and n.split("/")[0] in ("api", "ayon_server", "setup")]
    batch = "".join(f"{commit}:{n}\n" for n in wanted).encode()
    out = subprocess.run(["git", "-C", repo, "cat-file", "--batch"], input=batch, check=True, capture_output=True).stdout
    files, pos = {}, 0
    for name in wanted:
        header_end = out.index(b"\n", pos)
        size = int(out[pos:header_end].split()[2])
        files[name] = out[header_end + 1 : header_end + 1 + size].decode()
        pos = header_end + 1 + size + 1
    return files


def module_name(path: str) -> str:
    """api/ is on AYON's import path itself, so api/folders/x.py is the module `folders.x`."""
    parts = path[:-3].split("/")
    if parts[0] == "api":
        parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


@dataclass
class Module:
    name: str
    path: str
    tree: ast.Module
    is_package: bool
    symbols: dict[str, ast.AST] = field(default_factory=dict)
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)


def index_modules(files: dict[str, str]) -> dict[str, Module]:
    modules = {}
    for path, text in files.items():
        mod = Module(module_name(path), path, ast.parse(text), path.endswith("__init__.py"))
        for node in mod.tree.body:
            collect_symbol(mod, node)
        modules[mod.name] = mod
    return modules


def collect_symbol(mod: Module, node: ast.AST) -> None:
    if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        mod.symbols[node.name] = node
    elif isinstance(node, ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Name):
                mod.symbols[target.id] = node.value
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
        mod.symbols[node.target.id] = node.value
    elif isinstance(node, ast.ImportFrom):
        base = absolute_module(mod, node.module, node.level)
        for alias in node.names:
            mod.imports[alias.asname or alias.name] = (base, alias.name)
    elif isinstance(node, ast.Import):
        for alias in node.names:
            mod.imports[alias.asname or alias.name.split(".")[0]] = (alias.name, None)
    elif isinstance(node, ast.If):  # TYPE_CHECKING blocks and the like
        for child in node.body:
            collect_symbol(mod, child)


def absolute_module(mod: Module, name: str | None, level: int) -> str:
    if level == 0:
        return name or ""
    parts = mod.name.split(".")
    if not mod.is_package:
        parts = parts[:-1]
    parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join(parts + ([name] if name else []))


# ---------------------------------------------------------------------------------------------------------------
# Values: what an expression in AYON's source stands for, as far as a static reading can tell


@dataclass(frozen=True)
class Ref:
    """A class or function defined in AYON's source."""
    module: str
    name: str


@dataclass(frozen=True)
class External:
    """Something from outside the tree (typing, pydantic, fastapi, builtins)."""
    name: str


@dataclass
class CallValue:
    func: object
    args: list
    kwargs: dict


@dataclass
class Subscript:
    base: object
    args: list


@dataclass(frozen=True)
class EntityModel:
    """`XEntity.model.post_model` and friends: built at runtime from field lists and attributes."""
    entity: str
    kind: str


class Unknown:
    def __init__(self, why: str):
        self.why = why


class Resolver:
    def __init__(self, modules: dict[str, Module]):
        self.modules = modules

    def lookup(self, module: str, name: str, depth: int = 0):
        """Follow imports to where `name` is defined; answers (module, node), a Ref or an External."""
        mod = self.modules.get(module)
        if mod is None or depth > 20:
            return External(name)
        if name in mod.symbols:
            return mod, mod.symbols[name]
        if name in mod.imports:
            source, original = mod.imports[name]
            if original is None:
                return External(source)
            if f"{source}.{original}" in self.modules:
                return External(f"module:{source}.{original}")
            if source in self.modules:
                return self.lookup(source, original, depth + 1)
            return External(original)
        return External(name)

    def evaluate(self, module: str, node: ast.AST, depth: int = 0):
        if depth > 30:
            return Unknown("too deep")
        ev = lambda n: self.evaluate(module, n, depth + 1)  # noqa: E731
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return [ev(e) for e in node.elts]
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    merged = ev(v)
                    if isinstance(merged, dict):
                        out.update(merged)
                else:
                    out[ev(k)] = ev(v)
            return out
        if isinstance(node, ast.Name):
            found = self.lookup(module, node.id)
            if isinstance(found, External):
                return found
            mod, target = found
            if isinstance(target, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                return Ref(mod.name, target.name)
            return self.evaluate(mod.name, target, depth + 1)
        if isinstance(node, ast.Attribute):
            return self.attribute(ev(node.value), node.attr, depth)
        if isinstance(node, ast.Call):
            kwargs = {}
            for kw in node.keywords:
                value = ev(kw.value)
                if kw.arg is None:
                    if isinstance(value, dict):
                        kwargs.update(value)
                else:
                    kwargs[kw.arg] = value
            func = ev(node.func)
            return CallValue(func, [ev(a) for a in node.args], kwargs)
        if isinstance(node, ast.Subscript):
            inner = node.slice
            args = [ev(e) for e in inner.elts] if isinstance(inner, ast.Tuple) else [ev(inner)]
            return Subscript(ev(node.value), args)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return Subscript(External("Union"), [ev(node.left), ev(node.right)])
        return Unknown(type(node).__name__)

    def attribute(self, owner, attr: str, depth: int):
        if isinstance(owner, External) and owner.name.startswith("module:"):
            found = self.lookup(owner.name[len("module:"):], attr)
            if isinstance(found, tuple):
                mod, target = found
                if isinstance(target, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    return Ref(mod.name, target.name)
                return self.evaluate(mod.name, target, depth + 1)
            return found
        if isinstance(owner, Ref):
            if owner.name.endswith("Entity") and attr == "model":
                return EntityModel(owner.name[: -len("Entity")].lower(), "")
            if owner.name == "EntityID" and attr == "field":
                # EntityID.field(name) is a Field with EntityID.META's bounds.
                return External("EntityID.field")
            node = self.class_node(owner)
            if node is not None:
                for stmt in node.body:
                    target = stmt.target if isinstance(stmt, ast.AnnAssign) else None
                    if isinstance(stmt, ast.Assign):
                        target = stmt.targets[0]
                    if isinstance(target, ast.Name) and target.id == attr and stmt.value is not None:
                        return self.evaluate(owner.module, stmt.value, depth + 1)
                    if isinstance(stmt, ast.ClassDef) and stmt.name == attr:
                        return Ref(owner.module, f"{owner.name}.{attr}")
        if isinstance(owner, EntityModel) and not owner.kind:
            return EntityModel(owner.entity, attr)
        return Unknown(f"attribute {attr}")

    def class_node(self, ref: Ref) -> ast.ClassDef | None:
        mod = self.modules.get(ref.module)
        if mod is None:
            return None
        parts = ref.name.split(".")
        node = mod.symbols.get(parts[0])
        for part in parts[1:]:
            node = next((s for s in getattr(node, "body", []) if isinstance(s, ast.ClassDef) and s.name == part), None)
        return node if isinstance(node, ast.ClassDef) else None

    def function_node(self, ref: Ref):
        node = self.modules[ref.module].symbols.get(ref.name) if ref.module in self.modules else None
        return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def func_name(value) -> str:
    if isinstance(value, External):
        return value.name.split(".")[-1] if not value.name.startswith("EntityID") else value.name
    if isinstance(value, Ref):
        return value.name
    return ""


# ---------------------------------------------------------------------------------------------------------------
# Turning types and field declarations into constraint facts


def camelize(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


def bounds_of(kwargs: dict) -> dict:
    """The constraint facts of a Field(...) / Path(...) / constr(...) call's keywords."""
    facts = {}
    regex = kwargs.get("regex") or kwargs.get("pattern")
    if regex:
        facts["pattern"] = True
        # Whether the empty string passes tells a caller if a minLength of 1 is stricter than AYON.
        if isinstance(regex, str):
            facts["patternMatchesEmpty"] = re.match(regex, "") is not None
    for key, schema_key in BOUNDS.items():
        value = kwargs.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            facts[schema_key] = value
    return facts


class Extractor:
    def __init__(self, resolver: Resolver, default_attributes: dict):
        self.r = resolver
        self.default_attributes = default_attributes

    # Types ----------------------------------------------------------------------------------------------------

    def describe(self, typ, facts: dict, path: str, out: dict, unresolved: list, depth: int = 0) -> None:
        """Record `path` with `facts` and whatever its type adds, then its items, values and fields."""
        if depth > MAX_DEPTH:
            return
        if isinstance(typ, Subscript):
            name = func_name(typ.base)
            if name == "Annotated":
                extra = {}
                for meta in typ.args[1:]:
                    if isinstance(meta, CallValue) and func_name(meta.func) in FIELD_FACTORIES | PARAM_MARKERS:
                        extra.update(bounds_of(meta.kwargs))
                return self.describe(typ.args[0], {**extra, **facts}, path, out, unresolved, depth)
            if name in ("Optional", "Union"):
                members = [a for a in flatten_union(typ) if a is not None and func_name(a) != "None"]
                if len(members) == 1:
                    return self.describe(members[0], facts, path, out, unresolved, depth)
                # Several types accepted: the field's own bounds still hold; the members add nothing certain.
                self.add(out, path, facts)
                for member in members:
                    if self.is_model(member) or isinstance(member, Subscript):
                        self.describe(member, {}, path, {}, unresolved, depth)
                return
            if name == "Literal":
                return self.add(out, path, {**facts, "enum": [a for a in typ.args]})
            if name in ("list", "List", "set", "Set", "tuple", "Tuple", "Sequence", "conlist"):
                own = {k: v for k, v in facts.items() if k in ITEM_BOUNDS}
                # Pydantic 1 applies a list field's string and number bounds to its items.
                item = {k: v for k, v in facts.items() if k not in ITEM_BOUNDS}
                self.add(out, path, own)
                if typ.args and not (len(typ.args) == 2 and typ.args[1] is Ellipsis):
                    self.describe(typ.args[0], item, f"{path}[]", out, unresolved, depth + 1)
                return
            if name in ("dict", "Dict", "Mapping"):
                self.add(out, path, {})
                if len(typ.args) == 2:
                    self.describe(typ.args[1], {}, f"{path}.*", out, unresolved, depth + 1)
                return
            return self.add(out, path, facts)
        if isinstance(typ, CallValue) and func_name(typ.func) in ("constr", "conint", "confloat", "conlist"):
            own = bounds_of(typ.kwargs)
            if func_name(typ.func) == "conlist":
                self.add(out, path, {**facts, **{k: v for k, v in own.items() if k in ITEM_BOUNDS}})
                if typ.args:
                    self.describe(typ.args[0], {}, f"{path}[]", out, unresolved, depth + 1)
                return
            return self.add(out, path, {**facts, **own})
        if isinstance(typ, EntityModel):
            self.add(out, path, facts)
            return self.entity_model(typ, path, out, unresolved, depth)
        if isinstance(typ, Ref):
            values = self.enum_values(typ)
            if values is not None:
                return self.add(out, path, {**facts, "enum": values})
            if self.is_model(typ):
                self.add(out, path, facts)
                return self.model_fields(typ, path, out, unresolved, depth)
            return self.add(out, path, facts)
        if isinstance(typ, Unknown):
            unresolved.append(f"{path}: {typ.why}")
            return self.add(out, path, facts)
        return self.add(out, path, facts)

    @staticmethod
    def add(out: dict, path: str, facts: dict) -> None:
        out.setdefault(path, {}).update(facts)

    # Models ---------------------------------------------------------------------------------------------------

    def bases(self, ref: Ref) -> list:
        node = self.r.class_node(ref)
        return [self.r.evaluate(ref.module, b) for b in node.bases] if node else []

    def ancestry(self, ref, seen=None) -> list:
        """The class and its bases in AYON's tree, nearest first; externals and entity models as they are."""
        seen = seen or set()
        if not isinstance(ref, Ref) or ref in seen:
            return [ref]
        seen.add(ref)
        out = [ref]
        for base in self.bases(ref):
            out += self.ancestry(base, seen)
        return out

    def is_model(self, typ) -> bool:
        if isinstance(typ, EntityModel):
            return True
        if not isinstance(typ, Ref) or self.r.class_node(typ) is None:
            return False
        names = {func_name(a) for a in self.ancestry(typ)}
        return bool(names & {"BaseModel", "RestModel", "OPModel", "BaseSettingsModel", "GenericModel"}) or any(
            isinstance(a, EntityModel) for a in self.ancestry(typ)
        )

    def enum_values(self, ref: Ref):
        names = {func_name(a) for a in self.ancestry(ref)}
        if not names & {"Enum", "StrEnum", "IntEnum"}:
            return None
        node = self.r.class_node(ref)
        values = []
        for stmt in node.body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
                values.append(stmt.value.value)
        return values

    def camelizes(self, ref: Ref) -> bool:
        """RestModel (OPModel) and entity models accept camelCase aliases; settings models use field names."""
        for cls in self.ancestry(ref):
            if isinstance(cls, EntityModel) or func_name(cls) in ("RestModel", "OPModel"):
                return True
            if isinstance(cls, Ref):
                node = self.r.class_node(cls)
                config = next((s for s in node.body if isinstance(s, ast.ClassDef) and s.name == "Config"), None)
                if config and any(
                    isinstance(s, ast.Assign) and s.targets[0].id == "alias_generator" for s in config.body
                ):
                    return True
        return False

    def validated_fields(self, node: ast.ClassDef) -> set[str]:
        """Fields with a custom @validator: AYON checks them in code the script does not read."""
        names = set()
        for stmt in node.body:
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for deco in stmt.decorator_list:
                if isinstance(deco, ast.Call) and getattr(deco.func, "id", "") in ("validator", "field_validator"):
                    names |= {a.value for a in deco.args if isinstance(a, ast.Constant)}
        return names

    def model_fields(self, ref: Ref, prefix: str, out: dict, unresolved: list, depth: int) -> None:
        camel = self.camelizes(ref)
        # Base classes first, so a subclass's redefinition wins.
        for cls in reversed(self.ancestry(ref)):
            if isinstance(cls, EntityModel):
                self.entity_model(cls, prefix, out, unresolved, depth)
                continue
            if not isinstance(cls, Ref):
                if isinstance(cls, Unknown):
                    unresolved.append(f"{prefix}: base {cls.why}")
                continue
            node = self.r.class_node(cls)
            if node is None:
                continue
            validated = self.validated_fields(node)
            for stmt in node.body:
                if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
                    continue
                name = stmt.target.id
                if name.startswith("_") or "ClassVar" in ast.unparse(stmt.annotation):
                    continue
                typ = self.r.evaluate(cls.module, stmt.annotation)
                default = self.r.evaluate(cls.module, stmt.value) if stmt.value is not None else None
                kwargs = field_kwargs(default) or {}
                alias = kwargs.get("alias") if isinstance(kwargs.get("alias"), str) else None
                wire = alias or (camelize(name) if camel else name)
                path = f"{prefix}.{wire}"
                for key in [k for k in out if k == path or k.startswith(path + ".") or k.startswith(path + "[")]:
                    del out[key]
                facts = bounds_of(kwargs)
                if name in validated:
                    facts["validator"] = True
                self.describe(typ, facts, path, out, unresolved, depth + 1)

    # Entity models, generated at runtime from field lists --------------------------------------------------------

    def entity_model(self, model: EntityModel, prefix: str, out: dict, unresolved: list, depth: int) -> None:
        if model.kind == "attrib_model":
            for attr_name, attr in self.default_attributes.get(model.entity, {}).items():
                self.add(out, f"{prefix}.{attr_name}", attribute_facts(attr))
            return
        if model.kind not in ("post_model", "patch_model", "main_model"):
            unresolved.append(f"{prefix}: entity model {model.kind}")
            return
        for definition in self.entity_field_definitions(model):
            name = definition.get("name")
            if not isinstance(name, str):
                continue
            facts = bounds_of(definition)
            enum = definition.get("enum")
            if isinstance(enum, list) and enum:
                facts["enum"] = [e.get("value") if isinstance(e, dict) else e for e in enum]
            path = f"{prefix}.{camelize(name)}"
            if name == "attrib":
                # Attributes are configurable per installation: only the defaults are known here.
                self.add(out, path, {})
                self.entity_model(EntityModel(model.entity, "attrib_model"), path, out, unresolved, depth)
                continue
            sub = definition.get("submodel") or definition.get("list_of_submodels")
            if isinstance(sub, Ref):
                target = f"{path}[]" if "list_of_submodels" in definition else path
                self.add(out, path, facts)
                self.add(out, target, {})
                self.model_fields(sub, target, out, unresolved, depth + 1)
                continue
            kind = definition.get("type", "string")
            if kind in ("list_of_strings", "list_of_integers", "list_of_any"):
                self.add(out, path, {k: v for k, v in facts.items() if k in ITEM_BOUNDS})
                self.add(out, f"{path}[]", {k: v for k, v in facts.items() if k not in ITEM_BOUNDS})
            else:
                self.add(out, path, facts)

    def entity_field_definitions(self, model: EntityModel) -> list[dict]:
        """The field definitions ModelSet feeds its generator: per-entity fields plus the shared ones."""
        fields_mod = "ayon_server.entities.models.fields"
        own = self.r.evaluate(fields_mod, self.r.modules[fields_mod].symbols.get(f"{model.entity}_fields", ast.List([])))
        own = own if isinstance(own, list) else []
        shared = self.model_set_list("_common_fields")
        if model.entity not in ("project", "user"):
            shared += self.model_set_list("_project_level_fields")
        has_id = model.entity not in ("project", "user")
        ident = []
        if model.kind in ("post_model", "main_model"):
            id_regex = self.r.evaluate("ayon_server.types", ast.Name("ENTITY_ID_REGEX"))
            ident = [{"name": "id", "regex": id_regex}] if has_id else []
        definitions = ident + [d for d in own + shared if isinstance(d, dict) and not d.get("dynamic")]
        return definitions

    def model_set_list(self, prop: str) -> list[dict]:
        """Evaluate the list literal a ModelSet property returns (f-string titles come out unknown; no matter)."""
        mod = "ayon_server.entities.models"
        cls = self.r.class_node(Ref(mod, "ModelSet"))
        fn = next(s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == prop)
        returns = [s for s in ast.walk(fn) if isinstance(s, ast.Return) and isinstance(s.value, ast.List)]
        longest = max(returns, key=lambda s: len(s.value.elts), default=None)
        value = self.r.evaluate(mod, longest.value) if longest else []
        return [d for d in value if isinstance(d, dict)]


def attribute_facts(attr: dict) -> dict:
    facts = bounds_of({**attr, "min_length": attr.get("min_len"), "max_length": attr.get("max_len")} | {
        k: attr[k] for k in ("min_length", "max_length") if k in attr
    })
    if attr.get("enum"):
        facts["enum"] = [e.get("value") if isinstance(e, dict) else e for e in attr["enum"]]
    return facts


def field_kwargs(default) -> dict | None:
    if isinstance(default, CallValue):
        name = func_name(default.func)
        if name in FIELD_FACTORIES or name in PARAM_MARKERS:
            return default.kwargs
        if name == "EntityID.field":
            return ENTITY_ID_META
    return None


def flatten_union(typ) -> list:
    out = []
    for arg in typ.args:
        if isinstance(arg, Subscript) and func_name(arg.base) in ("Optional", "Union"):
            out += flatten_union(arg)
        else:
            out.append(arg)
    return out


# ---------------------------------------------------------------------------------------------------------------
# Routes


@dataclass
class Route:
    method: str
    path: str
    fields: dict = field(default_factory=dict)
    unresolved: list = field(default_factory=list)
    body_params: list = field(default_factory=list)


def router_prefix(resolver: Resolver, module: str, router_name: str) -> str | None:
    value = resolver.evaluate(module, ast.Name(router_name))
    if isinstance(value, CallValue) and func_name(value.func) == "APIRouter":
        prefix = value.kwargs.get("prefix", "")
        return prefix if isinstance(prefix, str) else None
    return None


def find_routes(resolver: Resolver, extractor: Extractor) -> list[Route]:
    routes = []
    for mod in resolver.modules.values():
        if not mod.path.startswith("api/"):
            continue
        for node in mod.tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for deco in node.decorator_list:
                if not (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute)):
                    continue
                if deco.func.attr not in HTTP_METHODS or not isinstance(deco.func.value, ast.Name):
                    continue
                prefix = router_prefix(resolver, mod.name, deco.func.value.id)
                sub = deco.args[0].value if deco.args and isinstance(deco.args[0], ast.Constant) else None
                if prefix is None or sub is None:
                    continue
                route = Route(deco.func.attr.upper(), "/api" + prefix + sub)
                path_names = {part[1:-1].split(":")[0] for part in route.path.split("/") if part.startswith("{")}
                read_parameters(extractor, mod.name, node, path_names, route, set())
                finish_body(extractor, route)
                routes.append(route)
    return routes


def param_marker(resolver: Resolver, module: str, arg: ast.arg, default: ast.AST | None):
    """(marker call or None, the bare type) for a function parameter, seeing through Annotated aliases."""
    marker = resolver.evaluate(module, default) if default is not None else None
    typ = resolver.evaluate(module, arg.annotation) if arg.annotation is not None else None
    if isinstance(typ, Subscript) and func_name(typ.base) == "Annotated":
        for meta in typ.args[1:]:
            if isinstance(meta, CallValue) and func_name(meta.func) in PARAM_MARKERS | FIELD_FACTORIES:
                marker = meta
        typ = typ.args[0]
    if not (isinstance(marker, CallValue) and func_name(marker.func) in PARAM_MARKERS):
        marker = None
    return marker, typ


def read_parameters(extractor: Extractor, module: str, fn, path_names: set, route: Route, seen: set) -> None:
    resolver = extractor.r
    args = fn.args.args + fn.args.kwonlyargs
    defaults = [None] * (len(fn.args.args) - len(fn.args.defaults)) + list(fn.args.defaults) + list(
        fn.args.kw_defaults
    )
    for arg, default in zip(args, defaults):
        if arg.arg in ("self", "cls"):
            continue
        marker, typ = param_marker(resolver, module, arg, default)
        kind = func_name(marker.func) if marker else None
        if kind == "Depends":
            dependency = marker.args[0] if marker.args else typ
            if isinstance(dependency, Ref) and dependency not in seen:
                node = resolver.function_node(dependency)
                if node is not None:
                    read_parameters(extractor, dependency.module, node, path_names, route, seen | {dependency})
            continue
        if kind in ("Header", "Cookie"):
            continue
        if kind in ("Form", "File"):
            route.unresolved.append(f"form:{arg.arg}")
            continue
        if kind is None and isinstance(typ, External) and typ.name in ("Request", "BackgroundTasks", "Response"):
            continue
        name = marker.kwargs.get("alias") if marker and isinstance(marker.kwargs.get("alias"), str) else arg.arg
        facts = bounds_of(marker.kwargs) if marker else {}
        if kind == "Path" or (kind is None and arg.arg in path_names):
            extractor.describe(typ, facts, f"path.{name}", route.fields, route.unresolved)
        elif kind == "Query" or (kind is None and not extractor.is_model(typ) and not is_collection(typ)):
            if marker and marker.kwargs.get("include_in_schema") is False:
                continue
            extractor.describe(typ, facts, f"query.{name}", route.fields, route.unresolved)
        else:
            embed = bool(marker and marker.kwargs.get("embed"))
            route.body_params.append((name, typ, facts, embed))


def is_collection(typ) -> bool:
    return isinstance(typ, Subscript) and func_name(typ.base) in ("list", "List", "dict", "Dict", "set")


def finish_body(extractor: Extractor, route: Route) -> None:
    """FastAPI embeds body parameters under their names when there are several (or embed=True)."""
    embed_all = len(route.body_params) > 1
    for name, typ, facts, embed in route.body_params:
        prefix = f"body.{name}" if embed_all or embed else "body"
        extractor.describe(typ, facts, prefix, route.fields, route.unresolved)
    if "body" in route.fields and not route.fields["body"]:
        del route.fields["body"]


# ---------------------------------------------------------------------------------------------------------------


def default_attributes(resolver: Resolver) -> dict:
    """setup/attributes.py's default attribute set, by entity type."""
    value = resolver.evaluate("setup.attributes", ast.Name("DEFAULT_ATTRIBUTES"))
    by_entity: dict = {}
    for name, data in (value if isinstance(value, dict) else {}).items():
        for letter in str(data.get("scope", "")).split(","):
            entity = ATTRIBUTE_SCOPES.get(letter.strip().lower())
            if entity:
                by_entity.setdefault(entity, {})[name] = data
    return by_entity


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", default="/work/.mirror/ynput+ayon-backend/repo")
    parser.add_argument("--commit", default="288edd7")
    root = FsPath(__file__).resolve().parent.parent
    parser.add_argument("--out", default=str(root / "core/test/fixtures/ayon-request-constraints.json"))
    options = parser.parse_args()

    resolver = Resolver(index_modules(read_tree(options.repo, options.commit)))
    # EntityID.field(...) is a Field carrying EntityID.META's bounds.
    ENTITY_ID_META.update(resolver.evaluate("ayon_server.utils.entity_id", ast.parse("EntityID.META").body[0].value))
    extractor = Extractor(resolver, default_attributes(resolver))
    routes = sorted(find_routes(resolver, extractor), key=lambda r: (r.path, r.method))
    document = {
        "about": "Input constraints of AYON server's REST routes, as facts (pattern: true means a pattern exists). "
        "Generated by scripts/ayon-request-constraints.py; do not edit by hand.",
        "source": {"repository": "ynput/ayon-backend", "commit": options.commit},
        "routes": {
            f"{r.method} {r.path}": {
                "fields": dict(sorted(r.fields.items())),
                **({"unresolved": sorted(set(r.unresolved))} if r.unresolved else {}),
            }
            for r in routes
        },
    }
    FsPath(options.out).write_text(json.dumps(document, indent=1, default=str) + "\n")
    unresolved = sum(1 for r in routes if r.unresolved)
    print(f"{len(routes)} routes, {sum(len(r.fields) for r in routes)} fields, {unresolved} partly unresolved",
          file=sys.stderr)


if __name__ == "__main__":
    main()
