// Robot text printed by DebugClient cannot drive the terminal (a `refused` reply that cleared the screen, set the
// window title and faked a prompt).
#include "Tools/Streams/TerminalText.h"
#include <gtest/gtest.h>

namespace nao::test
{
TEST(TerminalText, EscapeSequencesAreWrittenOutNotSent)
{
  EXPECT_EQ(terminalSafe("refused\x1b[2J\x1b]0;owned\x07$ "), "refused\\x1b[2J\\x1b]0;owned\\x07$ ");
  EXPECT_EQ(terminalSafe("a\rb\x7f"), "a\\x0db\\x7f");
  EXPECT_EQ(terminalSafe("csi \xc2\x9b"
                         "2J"),
            "csi \\xc2\\x9b2J")
      << "C1 control as UTF-8";
}

TEST(TerminalText, OrdinaryTextIsKept)
{
  EXPECT_EQ(terminalSafe("JointRequest = 1\n\tangles [°] é ü"), "JointRequest = 1\n\tangles [°] é ü");
  EXPECT_EQ(terminalSafe(""), "");
  EXPECT_EQ(terminalSafe("\xc2"), "\xc2") << "a lone lead byte is no control character";
}
} // namespace nao::test
