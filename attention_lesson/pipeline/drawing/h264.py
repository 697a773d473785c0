"""Just enough of H.264's syntax to repeat a picture with a packet that codes "no change" (ITU-T
H.264, 7.3).

A P slice whose every macroblock is skipped (P_Skip, no residual) decodes to exactly the picture before
it, whatever that picture is. x264 codes one for a frame identical to its reference (e.g. a flat grey
frame after a flat grey frame), and that packet can stand for any further frame of a hold in a stream
with the same parameter sets and size, once it carries the number the standard requires of the next
picture: `frame_num` one more than the reference before it (7.4.3) and, for picture order count type
0, its `pic_order_cnt_lsb`. Both are fixed-width fields near the start of the slice header, so a copy
is the same bytes with those bits rewritten (and emulation prevention redone).

`Stream` reads what that needs from the encoder's headers (SPS, PPS), `Slice` finds the two
fields in a P slice and checks that the slice repeats cleanly (no memory management commands), and
`Slice.numbered` writes a copy.
"""

from __future__ import annotations

from dataclasses import dataclass

HIGH_PROFILES = {100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135}  # with chroma_format_idc
P_SLICE, NON_IDR = {0, 5}, 1  # slice_type values of a P slice; nal_unit_type of a non-IDR slice


class Unsupported(ValueError):
    """A stream or packet this module does not rewrite (the caller encodes the frames instead)."""


def unescape(nal: bytes) -> bytes:
    """NAL unit payload -> RBSP: drop each emulation prevention byte (00 00 03 -> 00 00)."""
    return nal.replace(b"\x00\x00\x03", b"\x00\x00")  # replace is left to right, as the rule reads


def escape(rbsp: bytes) -> bytes:
    """RBSP -> NAL unit payload: a 03 after every 00 00 that precedes a byte <= 03 (7.4.1)."""
    out, zeros = bytearray(), 0
    for b in rbsp:
        if zeros >= 2 and b <= 3:
            out.append(3)
            zeros = 0
        out.append(b)
        zeros = zeros + 1 if b == 0 else 0
    if zeros >= 2:  # an RBSP ending in 00 00 (cabac_zero_words) gets a final 03
        out.append(3)
    return bytes(out)


class Bits:
    """A big-endian bit reader over an RBSP, with the Exp-Golomb codes of 9.1."""

    def __init__(self, data: bytes, pos: int = 0):
        self.data, self.pos = data, pos

    def u(self, n: int) -> int:
        v = 0
        for _ in range(n):
            byte = self.data[self.pos >> 3]
            v = (v << 1) | ((byte >> (7 - (self.pos & 7))) & 1)
            self.pos += 1
        return v

    def ue(self) -> int:
        zeros = 0
        while self.u(1) == 0:
            zeros += 1
        return (1 << zeros) - 1 + self.u(zeros)

    def se(self) -> int:
        k = self.ue()
        return (k + 1) // 2 if k & 1 else -(k // 2)


def put_bits(data: bytearray, pos: int, n: int, value: int) -> None:
    """Write `value` as n bits at bit offset pos."""
    for i in range(n):
        bit, at = (value >> (n - 1 - i)) & 1, pos + i
        mask = 1 << (7 - (at & 7))
        data[at >> 3] = (data[at >> 3] | mask) if bit else (data[at >> 3] & ~mask)


def nal_units(data: bytes) -> list[bytes]:
    """The NAL units of an Annex B byte stream (what x264 hands libavcodec: start code, unit, ...)."""
    units = [u for u in data.split(b"\x00\x00\x01")[1:]]
    return [u[:-1] if u.endswith(b"\x00") and i < len(units) - 1 else u for i, u in enumerate(units)]


@dataclass(frozen=True)
class Stream:
    """The sequence and picture parameters a P slice header's layout depends on."""

    frame_num_bits: int
    poc_type: int
    poc_lsb_bits: int
    frame_mbs_only: bool
    separate_colour_plane: bool
    chroma: bool  # ChromaArrayType != 0
    pic_order_present: bool  # bottom_field_pic_order_in_frame_present_flag
    redundant_pic_cnt: bool
    weighted_pred: bool
    ref_idx_default: int  # num_ref_idx_l0_default_active_minus1

    @classmethod
    def from_headers(cls, extradata: bytes) -> "Stream":
        """From the encoder's global headers (Annex B: one SPS and one PPS, as x264 writes them)."""
        units = {u[0] & 0x1F: u for u in nal_units(extradata)}
        if 7 not in units or 8 not in units:
            raise Unsupported("no sequence and picture parameter sets")
        return cls(**_sps(unescape(units[7][1:])), **_pps(unescape(units[8][1:])))


def _sps(rbsp: bytes) -> dict:
    r = Bits(rbsp)
    profile = r.u(8)
    r.u(16)  # constraint flags, level
    r.ue()  # seq_parameter_set_id
    chroma_format, separate = 1, False
    if profile in HIGH_PROFILES:
        chroma_format = r.ue()
        if chroma_format == 3:
            separate = bool(r.u(1))
        r.ue(), r.ue(), r.u(1)  # bit depths, qpprime_y_zero_transform_bypass_flag
        if r.u(1):
            raise Unsupported("a scaling matrix in the SPS")
    frame_num_bits, poc_type = r.ue() + 4, r.ue()
    if poc_type not in (0, 2):
        raise Unsupported(f"picture order count type {poc_type}")
    poc_lsb_bits = r.ue() + 4 if poc_type == 0 else 0
    r.ue(), r.u(1), r.ue(), r.ue()  # max_num_ref_frames, gaps allowed, width, height
    return {"frame_num_bits": frame_num_bits, "poc_type": poc_type, "poc_lsb_bits": poc_lsb_bits,
            "frame_mbs_only": bool(r.u(1)), "separate_colour_plane": separate,
            "chroma": chroma_format != 0 and not separate}


def _pps(rbsp: bytes) -> dict:
    r = Bits(rbsp)
    r.ue(), r.ue(), r.u(1)  # pps id, sps id, entropy_coding_mode_flag
    pic_order_present = bool(r.u(1))
    if r.ue() != 0:
        raise Unsupported("slice groups")
    ref_idx_default = r.ue()
    r.ue()  # num_ref_idx_l1_default_active_minus1
    weighted_pred = bool(r.u(1))
    r.u(2), r.se(), r.se(), r.se(), r.u(1), r.u(1)  # bipred, init qp/qs, chroma qp offset, flags
    return {"pic_order_present": pic_order_present, "redundant_pic_cnt": bool(r.u(1)),
            "weighted_pred": weighted_pred, "ref_idx_default": ref_idx_default}


@dataclass(frozen=True)
class Slice:
    """The P slice of one packet: where its frame_num and pic_order_cnt_lsb are, and their values."""

    stream: Stream
    prefix: bytes  # the packet's bytes up to this slice's NAL unit (its start code included)
    header: int  # the NAL header byte
    rbsp: bytes
    frame_num_at: int
    frame_num: int
    poc_at: int | None
    poc_lsb: int | None

    @classmethod
    def of_packet(cls, stream: Stream, packet: bytes) -> "Slice":
        """The packet's one slice, last in it (a unit before it, e.g. an SEI, is kept as it is)."""
        units = nal_units(packet)
        if not units or sum(u[0] & 0x1F in (1, 5) for u in units) != 1 or not packet.endswith(units[-1]):
            raise Unsupported("not a packet of one slice, last")
        nal = units[-1]
        if nal[0] & 0x1F != NON_IDR or nal[0] >> 5 == 0:
            raise Unsupported("not a non-IDR reference slice")
        rbsp = unescape(nal[1:])
        return cls(stream, packet[:len(packet) - len(nal)], nal[0], rbsp, *_fields(stream, rbsp))

    def numbered(self, frame_num: int, poc_lsb: int | None) -> bytes:
        """This packet as a picture with another frame_num and pic_order_cnt_lsb (taken modulo their
        ranges)."""
        rbsp, s = bytearray(self.rbsp), self.stream
        put_bits(rbsp, self.frame_num_at, s.frame_num_bits, frame_num % (1 << s.frame_num_bits))
        if self.poc_at is not None:
            put_bits(rbsp, self.poc_at, s.poc_lsb_bits, poc_lsb % (1 << s.poc_lsb_bits))
        return self.prefix + bytes([self.header]) + escape(bytes(rbsp))


def _fields(s: Stream, rbsp: bytes) -> tuple:
    """(frame_num's bit offset, frame_num, POC lsb's offset, POC lsb) of a P slice header; raises
    Unsupported for one that would not repeat as it is (7.3.3)."""
    r = Bits(rbsp)
    r.ue()  # first_mb_in_slice
    if r.ue() not in P_SLICE:
        raise Unsupported("not a P slice")
    r.ue()  # pic_parameter_set_id
    if s.separate_colour_plane:
        r.u(2)
    frame_num_at, frame_num = r.pos, r.u(s.frame_num_bits)
    if not s.frame_mbs_only and r.u(1):
        raise Unsupported("a field picture")
    poc_at = poc = None
    if s.poc_type == 0:
        poc_at, poc = r.pos, r.u(s.poc_lsb_bits)
        if s.pic_order_present:
            r.se()
    if s.redundant_pic_cnt:
        r.ue()
    refs = r.ue() if r.u(1) else s.ref_idx_default  # num_ref_idx_active_override_flag
    if r.u(1):  # ref_pic_list_modification_flag_l0
        raise Unsupported("a reordered reference list")
    if s.weighted_pred:
        _skip_weights(r, s.chroma, refs)
    if r.u(1):  # adaptive_ref_pic_marking_mode_flag
        raise Unsupported("memory management commands")
    return frame_num_at, frame_num, poc_at, poc


def _skip_weights(r: Bits, chroma: bool, refs: int) -> None:
    """pred_weight_table for list 0 (7.3.3.2): read past it."""
    r.ue()
    if chroma:
        r.ue()
    for _ in range(refs + 1):
        if r.u(1):
            r.se(), r.se()
        if chroma and r.u(1):
            for _ in range(4):
                r.se()
