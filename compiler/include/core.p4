/* core.p4: the P4-16 core library, as the P4-16 specification (v1.2.4,
 * section 7.1 and appendix "core.p4") declares it, for p4tc-compile.
 * Written for this project from the specification.
 */
#ifndef _CORE_P4_
#define _CORE_P4_

error {
    NoError,
    PacketTooShort,
    NoMatch,
    StackOutOfBounds,
    HeaderTooShort,
    ParserTimeout,
    ParserInvalidArgument
}

extern packet_in {
    void extract<T>(out T hdr);
    void extract<T>(out T variableSizeHeader, in bit<32> variableFieldSizeInBits);
    T lookahead<T>();
    void advance(in bit<32> sizeInBits);
    bit<32> length();
}

extern packet_out {
    void emit<T>(in T hdr);
}

extern void verify(in bool check, in error toSignal);

@noWarn("unused")
action NoAction() {}

match_kind {
    exact,
    ternary,
    lpm
}

#endif
