"""C++ identifiers: a table that hands out unique names, avoiding keywords and generated names."""

from __future__ import annotations

import re

CPP_KEYWORDS = frozenset(
    """
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t
    class compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield
    decltype default delete do double dynamic_cast else enum explicit export extern false float for friend
    goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private
    protected public register reinterpret_cast requires return short signed sizeof static static_assert
    static_cast struct switch template this thread_local throw true try typedef typeid typename union
    unsigned using virtual void volatile wchar_t while xor xor_eq
    """.split()
)

# Names the generated file or the runtime header already uses at function or global scope.
RUNTIME_NAMES = frozenset(
    """
    orch_args Tensor Arg TaskOutputTensors TensorCreateInfo PTO2TaskId MixedKernels DataType PTO2ScopeMode
    ChipStorageTaskArgs L2TaskArgs L0TaskArgs PTO2OrchestrationConfig from_tensor_arg alloc_tensors
    rt_submit_task rt_submit_aic_task rt_submit_aiv_task rt_submit_dummy_task get_tensor_data set_tensor_data
    to_u64 from_u64 make_tensor_external INVALID_KERNEL_ID PTO2_SCOPE PTO2ScopeGuard std size_t NULL
    int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t aicpu_orchestration_config
    aicpu_orchestration_entry main
    """.split()
)

# Macros the generated file's headers define (<stddef.h>, <stdint.h>, <stdio.h>, the runtime header
# and what its C++ headers bring in: <errno.h>, <limits.h>, <assert.h>): a variable so named would be
# replaced by the preprocessor (tools/attack/found/53: `int32_t errno = a + 1;`).
_WIDTHS = ("8", "16", "32", "64")
HEADER_MACROS = frozenset(
    """
    NULL offsetof errno assert EOF BUFSIZ FILENAME_MAX FOPEN_MAX TMP_MAX L_tmpnam P_tmpdir SEEK_SET
    SEEK_CUR SEEK_END stdin stdout stderr _IOFBF _IOLBF _IONBF SIZE_MAX PTRDIFF_MIN PTRDIFF_MAX
    SIG_ATOMIC_MIN SIG_ATOMIC_MAX WCHAR_MIN WCHAR_MAX WINT_MIN WINT_MAX INTMAX_MIN INTMAX_MAX
    UINTMAX_MAX INTPTR_MIN INTPTR_MAX UINTPTR_MAX INTMAX_C UINTMAX_C CHAR_BIT SCHAR_MIN SCHAR_MAX
    UCHAR_MAX CHAR_MIN CHAR_MAX MB_LEN_MAX SHRT_MIN SHRT_MAX USHRT_MAX INT_MIN INT_MAX UINT_MAX
    LONG_MIN LONG_MAX ULONG_MAX LLONG_MIN LLONG_MAX ULLONG_MAX
    E2BIG EACCES EADDRINUSE EADDRNOTAVAIL EAFNOSUPPORT EAGAIN EALREADY EBADF EBADMSG EBUSY ECANCELED
    ECHILD ECONNABORTED ECONNREFUSED ECONNRESET EDEADLK EDESTADDRREQ EDOM EEXIST EFAULT EFBIG
    EHOSTUNREACH EIDRM EILSEQ EINPROGRESS EINTR EINVAL EIO EISCONN EISDIR ELOOP EMFILE EMLINK
    EMSGSIZE ENAMETOOLONG ENETDOWN ENETRESET ENETUNREACH ENFILE ENOBUFS ENODATA ENODEV ENOENT
    ENOEXEC ENOLCK ENOLINK ENOMEM ENOMSG ENOPROTOOPT ENOSPC ENOSR ENOSTR ENOSYS ENOTCONN ENOTDIR
    ENOTEMPTY ENOTRECOVERABLE ENOTSOCK ENOTSUP ENOTTY ENXIO EOPNOTSUPP EOVERFLOW EOWNERDEAD EPERM
    EPIPE EPROTO EPROTONOSUPPORT EPROTOTYPE ERANGE EROFS ESPIPE ESRCH ETIME ETIMEDOUT ETXTBSY
    EWOULDBLOCK EXDEV
    PTO_DEVICE_FUNC PTO2_SCOPE PTO2_SCOPE_GUARD PTO2_SCOPE_CAT PTO2_SCOPE_CAT2
    PTO2_ORCHESTRATION_CONFIG_DEFINED rt_report_fatal LOG_ERROR LOG_WARN LOG_DEBUG
    PTO2_ERROR_NONE PTO2_ERROR_SCOPE_DEADLOCK PTO2_ERROR_HEAP_RING_DEADLOCK
    PTO2_ERROR_FLOW_CONTROL_DEADLOCK PTO2_ERROR_DEP_POOL_OVERFLOW PTO2_ERROR_INVALID_ARGS
    PTO2_ERROR_DEPENDENCY_OVERFLOW PTO2_ERROR_REQUIRE_SYNC_START_INVALID PTO2_ERROR_TENSOR_WAIT_TIMEOUT
    PTO2_ERROR_EXPLICIT_ORCH_FATAL PTO2_ERROR_SCOPE_TASKS_OVERFLOW
    """.split()
    + [f"LOG_INFO_V{v}" for v in range(10)]
    + [f"{kind}{w}_{end}" for w in _WIDTHS for kind, end in (("INT", "MIN"), ("INT", "MAX"), ("UINT", "MAX"),
                                                             ("INT", "C"), ("UINT", "C"))]
    + [f"{kind}_{speed}{w}_{end}" for w in _WIDTHS for speed in ("LEAST", "FAST")
       for kind, end in (("INT", "MIN"), ("INT", "MAX"), ("UINT", "MAX"))]
)

# Shapes of the names lower_to_emission generates: user variables never take them. (A pass-made
# barrier TaskId, ``phase_fence_barrier_<k>_tid``, is an ordinary variable name: no lowering makes it.)
GENERATED = re.compile(
    r"(params_t\d+(_.*)?|task_\d+_outs|alloc_\d+|mixed_\d+|params_phase_fence_barrier_\d+(_.*)?"
    r"|phase_fence_barrier_\d+_outs|ext_.*|indices_.*)\Z"
)

# The literal starts of GENERATED's alternatives: a name that starts with none of them is not
# shaped like a generated name (one C-level test before the pattern's).
GENERATED_STARTS = ("params_", "task_", "alloc_", "mixed_", "phase_fence_barrier_", "ext_", "indices_")


def generated_shape(name: str) -> bool:
    """Whether ``name`` is shaped like a name lower_to_emission generates (``GENERATED``)."""
    return name.startswith(GENERATED_STARTS) and GENERATED.match(name) is not None


# What a user name shaped like a generated one becomes before it is made unique (no suffix can
# take ``ext_a`` or ``params_t0`` out of that shape).
USER_PREFIX = "user_"


# Names a table never hands out.
RESERVED = CPP_KEYWORDS | RUNTIME_NAMES | HEADER_MACROS


class NameTable:
    """Unique identifiers: ``reserve(base)`` returns ``base`` or ``base_1``, ``base_2`` ...

    A search resumes after the suffix the last search with the same request returned: names are
    only ever added, so every suffix below it is still refused (linear in the names handed out).
    """

    def __init__(self, taken=()):
        self.taken: set[str] = set(taken)
        self.next_suffix: dict[tuple, int] = {}  # (base, generated, derived) -> first suffix to try

    def free(self, name: str) -> bool:
        return name not in self.taken and name not in RESERVED

    def reserve(self, base: str, *, generated: bool = False, derived: tuple[str, ...] = ()) -> str:
        """A free name from ``base``; with ``derived`` suffixes, those must be free as well. A base
        shaped like a generated name is not handed out unless ``generated``: it gets ``user_`` first,
        as does a taken base whose suffixed names are so shaped (``alloc``: every ``alloc_k`` is)."""
        if not generated and (generated_shape(base) or (not self.free(base) and generated_shape(base + "_1"))):
            base = USER_PREFIX + base
        request = (base, generated, tuple(derived))
        k = self.next_suffix.get(request, 0)
        candidate = f"{base}_{k}" if k else base
        while not self.allows(candidate, generated, derived):
            k += 1
            candidate = f"{base}_{k}"
        self.next_suffix[request] = k + 1
        self.hand_out(candidate, derived)
        return candidate

    def reserve_generated(self, base: str) -> str:
        """``reserve(base, generated=True)``, its usual case in one step: ``base`` itself when no
        request for it came before and it is free."""
        request = (base, True, ())
        if request not in self.next_suffix and base not in self.taken and base not in RESERVED:
            self.next_suffix[request] = 1
            self.taken.add(base)
            return base
        return self.reserve(base, generated=True)

    def hand_out(self, name: str, derived: tuple[str, ...]) -> None:
        """Take ``name`` and its derived names (``name`` + each suffix) out of the free ones."""
        self.taken.add(name)
        for d in derived:
            self.taken.add(name + d)

    def allows(self, name: str, generated: bool, derived: tuple[str, ...]) -> bool:
        """Whether ``name`` can be handed out: free, shaped like a generated name only when it is
        one, and with every derived name free."""
        if not self.free(name):
            return False
        if not generated and generated_shape(name):
            return False
        return self.derived_free(name, derived)

    def claim(self, name: str) -> None:
        self.taken.add(name)

    def derived_free(self, name: str, derived: tuple[str, ...]) -> bool:
        """Whether every name derived from ``name`` (``name`` + each suffix) is free."""
        for suffix in derived:  # (a loop: a generator in ``all`` costs more than these few checks)
            if not self.free(name + suffix):
                return False
        return True

    def take_first(self, preferred: str | None, fallback: str, derived: tuple[str, ...] = ()) -> str:
        """``preferred`` if ``take`` hands it out; else, when it is free with its derived names
        but shaped like a generated name, ``reserve(preferred)`` (its ``user_`` form); else
        ``fallback`` if ``take`` hands it out; else ``reserve(fallback)``. The same names as those
        steps in that order, in one call (``preferred`` None: straight to ``fallback``).
        remap_output_aliases names each variable so: the user's name, else the SSA name."""
        taken = self.taken  # (``free``, ``derived_free`` and ``hand_out`` written out: a call per name each)
        for name, first in ((preferred, True), (fallback, False)):
            if name is None or name in taken or name in RESERVED:
                continue
            for suffix in derived:
                derived_name = name + suffix
                if derived_name in taken or derived_name in RESERVED:
                    break
            else:
                if generated_shape(name):
                    if first:
                        return self.reserve(name, derived=derived)
                    break
                taken.add(name)
                for suffix in derived:
                    taken.add(name + suffix)
                return name
        return self.reserve(fallback, derived=derived)

    def take(self, name: str, derived: tuple[str, ...] = ()) -> bool:
        """Hand out ``name`` itself if it can be, with its derived names (``reserve(name,
        derived=derived)`` when that returns ``name`` unchanged, without the suffix search);
        whether it did."""
        if not self.allows(name, False, derived):
            return False
        self.hand_out(name, derived)
        return True


def base_name(name: str) -> str:
    """The user's name of an SSA version: ``x__ssa_v3`` -> ``x``."""
    return name.split("__", 1)[0] or name


def inline_copy_name(name: str, copy: int) -> str:
    """The name of an inline function's variable ``name`` in the copy made for its call number
    ``copy`` of the function being read (reference-surface section 5): ``t`` -> ``t_inline0``."""
    return f"{name}{INLINE_SUFFIX}{copy}"


INLINE_SUFFIX = "_inline"
INLINE_COPY = re.compile(rf"(\w+?)(?:{INLINE_SUFFIX}\d+)+\Z")


def inline_original(name: str) -> str | None:
    """The inline function's own name of a variable of a copy (``t_inline0`` -> ``t``, and
    ``t_inline0_inline1``, a copy in a copy, too), or None for a name of no such form."""
    match = INLINE_COPY.match(name)
    return match.group(1) if match else None


ROLES = frozenset({"ssa", "iter", "rv", "phi", "tile", "tmp", "out", "store", "idx"})
VERSION = re.compile(r"_?v\d+\Z")


def ssa_role(name: str) -> str | None:
    """The role of an IR name (reference-behaviour.md section 5, Parse): after the first ``__``,
    less a trailing version (``_v3``), a trailing token among ROLES: ``acc__rv_v2`` -> ``rv``,
    ``ret0__out`` -> ``out``."""
    head, sep, suffix = name.partition("__")
    if not sep or not head:
        return None
    token = VERSION.sub("", suffix).rsplit("_", 1)[-1]
    return token if token in ROLES else None
