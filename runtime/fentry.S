/*
** fentry.S -- the entry of GCC's -pg -mfentry front-end (x86-64): the
** __fentry__ that such code calls before each routine's prologue, and the
** return trampoline that a routine so entered returns to.  The C steps
** (hooks.c) do the work; these save what they may clobber and is the
** program's: the argument registers on entry, the return-value registers
** on exit.  Elsewhere than on x86-64 nothing is defined: a -pg -mfentry
** build is x86-64's alone.
*/
#if defined(__x86_64__) && defined(__ELF__)

/* The runtime's own code, where a sample is not the program's (sample.c). */
	.section aprof_text,"ax",@progbits

/*
** __fentry__: called by a routine's first instruction, so that here
** (%rsp) is the address in the routine after that call and 8(%rsp) the
** routine's own return address, in its caller.  The stack may be
** misaligned (GCC does not align it for a call to a routine of the same
** unit that calls nothing but __fentry__): aligned here, in a frame on
** %rbp.  The integer argument registers, %rax (the vector registers a
** variadic call uses) and %r10 (a nested function's static chain) are
** saved; aprof_fentry_enter(slot, after), the common case, uses no other.
** Where it returns non-zero, the eight vector argument registers are saved
** too, whole, for aprof_fentry_enter_slow(slot, after).
*/
	.globl	__fentry__
	.type	__fentry__, @function
__fentry__:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register rbp
	andq	$-16, %rsp
	subq	$64, %rsp
	movq	%rdi, 0(%rsp)
	movq	%rsi, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rcx, 24(%rsp)
	movq	%r8, 32(%rsp)
	movq	%r9, 40(%rsp)
	movq	%rax, 48(%rsp)
	movq	%r10, 56(%rsp)
	leaq	16(%rbp), %rdi
	movq	8(%rbp), %rsi
	call	aprof_fentry_enter
	testl	%eax, %eax
	jnz	.Lslow
.Lrestore:
	movq	0(%rsp), %rdi
	movq	8(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	24(%rsp), %rcx
	movq	32(%rsp), %r8
	movq	40(%rsp), %r9
	movq	48(%rsp), %rax
	movq	56(%rsp), %r10
	movq	%rbp, %rsp
	popq	%rbp
	.cfi_remember_state
	.cfi_def_cfa rsp, 8
	ret
	.cfi_restore_state
.Lslow:
	subq	$128, %rsp
	movaps	%xmm0, 0(%rsp)
	movaps	%xmm1, 16(%rsp)
	movaps	%xmm2, 32(%rsp)
	movaps	%xmm3, 48(%rsp)
	movaps	%xmm4, 64(%rsp)
	movaps	%xmm5, 80(%rsp)
	movaps	%xmm6, 96(%rsp)
	movaps	%xmm7, 112(%rsp)
	leaq	16(%rbp), %rdi
	movq	8(%rbp), %rsi
	call	aprof_fentry_enter_slow
	movaps	0(%rsp), %xmm0
	movaps	16(%rsp), %xmm1
	movaps	32(%rsp), %xmm2
	movaps	48(%rsp), %xmm3
	movaps	64(%rsp), %xmm4
	movaps	80(%rsp), %xmm5
	movaps	96(%rsp), %xmm6
	movaps	112(%rsp), %xmm7
	addq	$128, %rsp
	jmp	.Lrestore
	.cfi_endproc
	.size	__fentry__, .-__fentry__

/*
** The return trampoline: a routine whose return address aprof_fentry_enter
** replaced returns here, its stack pointer just above that word (SLOT).
** SLOT is taken back, for the real return address, which
** aprof_fentry_leave(slot) writes there from the shadow stack, and which
** the trampoline jumps to (%r11: no value is returned in it), the stack
** aligned below it as in __fentry__.  A jump, not a ret: the CPU's stack
** of return addresses has lost the routine's (its ret came here), and a
** ret would take its caller's, and each ret after it the one before.
** What the routine returns is kept: %rax and %rdx, %xmm0 and %xmm1 (the
** x87 stack, where long double returns, the C steps never use).  No
** unwinder passes it: its return address is not known to DWARF (marked
** undefined, so that a walk ends here).
*/
	.globl	aprof_fentry_return
	.hidden	aprof_fentry_return
	.type	aprof_fentry_return, @function
aprof_fentry_return:
	.cfi_startproc
	.cfi_undefined rip
	subq	$8, %rsp
	pushq	%rbp
	movq	%rsp, %rbp
	andq	$-16, %rsp
	subq	$48, %rsp
	movq	%rax, 32(%rsp)
	movq	%rdx, 40(%rsp)
	movaps	%xmm0, 0(%rsp)
	movaps	%xmm1, 16(%rsp)
	leaq	8(%rbp), %rdi
	call	aprof_fentry_leave
	movaps	0(%rsp), %xmm0
	movaps	16(%rsp), %xmm1
	movq	32(%rsp), %rax
	movq	40(%rsp), %rdx
	movq	%rbp, %rsp
	popq	%rbp
	popq	%r11
	jmp	*%r11
	.cfi_endproc
	.size	aprof_fentry_return, .-aprof_fentry_return

#endif
	.section .note.GNU-stack,"",@progbits
