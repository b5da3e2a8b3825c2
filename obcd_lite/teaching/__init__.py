"""Pure compute behind the teaching notebooks: 2x2 examples (01), breakpoint stages and sympy
derivations (02), Jacobi–Givens–QR completeness (03), your own problem (08: ``your_problem``). No plotting and
no widgets here."""
