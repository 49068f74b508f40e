//! The codec impls: `Wire` (size, write, read), one runtime call per field and
//! pass, and `Nullable` for the struct.

use proc_macro2::{Ident, TokenStream};
use quote::{quote, quote_spanned};
use syn::Type;

use super::defaults::{default_fn, is_default_fn};
use crate::model::{Container, Field};
use crate::private_path;
use crate::range::{self, Range};
use crate::spelling::{spelled_as_leaf, spelled_as_scalar};

/// Indices of tagged fields, in tag order.
fn tagged_in_order(container: &Container) -> Vec<usize> {
    let mut tagged: Vec<(u32, usize)> = container
        .fields
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.tag_number().map(|tag| (tag, i)))
        .collect();
    tagged.sort_unstable();
    tagged.into_iter().map(|(_, i)| i).collect()
}

/// `check_lossless`, strict encoding's pass: one runtime call for each field that
/// can lose a value (the ignorable ones) or hold one that can (nested structs).
/// Fields of neither kind, most of Kafka's, get no call, so that a struct of them
/// keeps the trait's provided method and compiles nothing more; the spelling that
/// tells them apart is checked by a `const` assertion (`check::types`).
fn strict_pass(container: &Container) -> TokenStream {
    let p = private_path::private();
    let fields = &container.fields;
    let mut calls = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let (ty, ident) = (&field.ty, &field.ident);
        if field.ignorable {
            let is_default = is_default_fn(index);
            calls.push(quote! {
                <#ty as #p::FieldRules>::strict_ignorable(&self.#ident, &FIELDS[#index], cx, #is_default)?;
            });
        } else if !spelled_as_leaf(ty) {
            calls.push(quote! {
                <#ty as #p::FieldRules>::strict_nested(&self.#ident, &FIELDS[#index], cx)?;
            });
        }
    }
    let method = (!calls.is_empty()).then(|| {
        quote! {
            // Inline, so that only programs encoding strictly compile it.
            #[inline]
            fn check_lossless(&self, cx: #p::Cx) -> #p::Result<(), #p::EncodeError> {
                #(#calls)*
                #p::Ok(())
            }
        }
    });
    quote!(#method)
}

/// `retained_size`: the heap bytes held by the fields that can hold any (arrays,
/// options, owned strings, nested structs, unknown tags), one runtime call each.
/// A struct of scalars and shared slices keeps the trait's provided method, zero,
/// and compiles nothing; the method is `#[inline]`, so that only programs that
/// ask for the figure compile it.
fn retained_pass(container: &Container) -> TokenStream {
    let p = private_path::private();
    let mut terms: Vec<TokenStream> = container
        .fields
        .iter()
        .filter(|field| !spelled_as_scalar(&field.ty))
        .map(|field| {
            let (ty, ident) = (&field.ty, &field.ident);
            quote!(<#ty as #p::FieldRules>::retained_field(&self.#ident))
        })
        .collect();
    // Typed where it is taken, at the field's type, as the codec takes it: a
    // field of another type is reported once, there.
    if let Some(unknown) = container.unknown_field() {
        let span = unknown.ty_span;
        let mut field = unknown.ident.clone();
        field.set_span(span);
        terms.push(quote_spanned! {span=>
            {
                let unknown: &#p::UnknownTaggedFields = &self.#field;
                unknown.retained_size()
            }
        });
    }
    if terms.is_empty() {
        return TokenStream::new();
    }
    quote! {
        #[inline]
        fn retained_size(&self) -> ::core::primitive::usize {
            #(#terms)+*
        }
    }
}

/// When a version-dependent piece of code runs: at every version, at none, or
/// where a comparison of the version `v` holds.
enum When {
    Always,
    Never,
    If(TokenStream),
}

impl When {
    /// The versions of `range`, knowing that `v` is one of `known` (a message's
    /// versions; every version for a nested struct, whose parents decide). Worked
    /// out here, when the program compiles, so that a field costs one comparison of
    /// the version, or none, and not a walk through its schema.
    fn versions(range: Range, known: Range) -> When {
        let range = range.intersect(known);
        if range.is_empty() {
            return When::Never;
        }
        let (min, max) = (range::lowest(range), range::highest(range));
        let (known_min, known_max) = (range::lowest(known), range::highest(known));
        match (min <= known_min, max >= known_max) {
            (true, true) => When::Always,
            (true, false) => When::If(quote!(v <= #max)),
            (false, true) => When::If(quote!(v >= #min)),
            (false, false) if min == max => When::If(quote!(v == #min)),
            (false, false) => When::If(quote!(v >= #min && v <= #max)),
        }
    }

    /// The condition as a `bool` expression, parenthesized to be an operand.
    fn expr(&self) -> TokenStream {
        match self {
            When::Always => quote!(true),
            When::Never => quote!(false),
            When::If(cond) => quote!((#cond)),
        }
    }

    /// `code`, guarded by the condition.
    fn guard(&self, code: TokenStream) -> TokenStream {
        match self {
            When::Always => code,
            When::Never => quote!(),
            When::If(cond) => quote!(if #cond { #code }),
        }
    }
}

/// The versions that have `field` in its struct's body: its versions before the
/// tagged ones (which the check stage has made an open-ended tail of them).
fn body_range(field: &Field) -> Range {
    let versions = field.versions.range;
    match field.tagged.range.min() {
        None => versions,
        Some(0) => Range::NONE,
        Some(first_tagged) => versions.intersect(Range::new(0, first_tagged - 1)),
    }
}

/// What the derive knows of a struct's versions: a message's own; every version
/// for a nested struct.
fn known_versions(container: &Container) -> Range {
    container
        .message
        .as_ref()
        .map_or(Range::at_least(0), |message| message.versions.range)
}

/// The context a field's value is coded in at version `v` inside a struct coded at
/// `cx`: compact where the struct is, unless the field's own flexible versions say
/// otherwise, and nullable in the field's nullable versions.
fn value_cx(field: &Field, known: Range) -> TokenStream {
    let p = private_path::private();
    let flexible = match field.flexible {
        Some(flexible) => When::versions(flexible.range, known).expr(),
        None => quote!(cx.flexible),
    };
    let nullable = match field.nullable {
        Some(nullable) => When::versions(nullable.range, known).expr(),
        None => quote!(false),
    };
    quote!(#p::Cx { version: v, flexible: #flexible, nullable: #nullable })
}

/// True when the field at `index` holds its default.
fn is_default_expr(field: &Field, index: usize, value: TokenStream) -> TokenStream {
    let p = private_path::private();
    let ty = &field.ty;
    match &field.default {
        None => quote!(<#ty as #p::FieldRules>::is_schema_default_value(#value)),
        Some(_) => {
            let default = default_fn(index);
            quote!(<#ty as #p::FieldRules>::is_default_value(#value, #default))
        }
    }
}

/// True when a field is one of Kafka's fixed-width scalars spelled as the plain
/// Rust type (`i32`, `bool`, ...), never null, zero-copy or given its own flexible
/// versions: such fields, one after another, are written as runs. The spelling is
/// only a guess: the run takes each width from `FixedWidth`, implemented for
/// exactly those types, so a guess that is wrong fails to compile or, for a type
/// that merely shadows a scalar's name, still writes that type's own bytes.
fn is_fixed_width(field: &Field) -> bool {
    if field.nullable.is_some() || field.zero_copy.is_some() || field.flexible.is_some() {
        return false;
    }
    let Type::Path(path) = &field.ty else {
        return false;
    };
    if path.qself.is_some() || path.path.leading_colon.is_some() {
        return false;
    }
    path.path.get_ident().is_some_and(|ident| {
        matches!(
            ident.to_string().as_str(),
            "bool" | "i8" | "i16" | "u16" | "i32" | "u32" | "i64" | "f64"
        )
    })
}

/// The write of fixed-width fields `run`: their bytes put together in one array
/// whose size and offsets the compiler works out from their widths, then one copy
/// into the buffer. With everything known, the array never exists: the values are
/// stored straight into the buffer after one bounds check.
fn write_run(fields: &[Field], run: &[usize]) -> TokenStream {
    let p = private_path::private();
    let widths: Vec<TokenStream> = run
        .iter()
        .map(|&index| {
            let ty = &fields[index].ty;
            quote!(<#ty as #p::FixedWidth>::WIDTH)
        })
        .collect();
    let puts = run.iter().enumerate().map(|(i, &index)| {
        let (ty, ident) = (&fields[index].ty, &fields[index].ident);
        let before = &widths[..i];
        let width = &widths[i];
        quote! {
            let start = 0 #(+ #before)*;
            <#ty as #p::FixedWidth>::put_be(self.#ident, &mut run[start..start + #width]);
        }
    });
    quote! {
        let mut run = [0u8; 0 #(+ #widths)*];
        #(#puts)*
        w.put_slice(&run);
    }
}

/// The write of the fixed-width fields gathered so far (emptying the list). The
/// versions are cut where any of them enters or leaves the body; each stretch of
/// versions writes the fields it has as one run, so that a partition's four
/// leading fields are one copy at version 12 and its first three at version 6.
fn write_fixed(fields: &[Field], group: &mut Vec<usize>, known: Range) -> TokenStream {
    let gathered = std::mem::take(group);
    if gathered.is_empty() || known.is_empty() {
        return quote!();
    }
    let ranges: Vec<Range> = gathered
        .iter()
        .map(|&index| body_range(&fields[index]).intersect(known))
        .collect();
    let (first, last) = (
        i32::from(range::lowest(known)),
        i32::from(range::highest(known)),
    );
    let mut cuts = vec![first, last + 1];
    for range in ranges.iter().filter(|r| !r.is_empty()) {
        cuts.push(i32::from(range::lowest(*range)));
        cuts.push(i32::from(range::highest(*range)) + 1);
    }
    cuts.sort_unstable();
    cuts.dedup();
    // Each stretch with the fields it has; neighbours with the same fields merged.
    let mut stretches: Vec<(i32, i32, Vec<usize>)> = Vec::new();
    for pair in cuts.windows(2) {
        let (from, to) = (pair[0], pair[1] - 1);
        let present: Vec<usize> = gathered
            .iter()
            .zip(&ranges)
            .filter(|(_, range)| i16::try_from(from).is_ok_and(|v| range.contains(v)))
            .map(|(&field, _)| field)
            .collect();
        match stretches.last_mut() {
            Some(last) if last.2 == present => last.1 = to,
            _ => stretches.push((from, to, present)),
        }
    }
    let writes = stretches
        .into_iter()
        .filter(|(_, _, present)| !present.is_empty())
        .map(|(from, to, present)| {
            let stretch = Range::new(from as i16, to as i16);
            When::versions(stretch, known).guard(write_run(fields, &present))
        });
    quote!(#(#writes)*)
}

/// The `Wire` impl: for each field, the comparison of the version that puts it in
/// the body (or the tagged section) and one runtime call. Not `#[inline]`: each
/// struct's codec is compiled once, in the crate that defines it, not again in
/// every crate that encodes or decodes it.
pub fn wire_impl(container: &Container) -> TokenStream {
    let ident = &container.ident;
    let p = private_path::private();
    let fields = &container.fields;
    let known = known_versions(container);

    let strict = strict_pass(container);
    let retained = retained_pass(container);
    let tagged = tagged_in_order(container);
    let known_tags = tagged.len() as u32;

    let mut size_body = Vec::new();
    let mut write_body = Vec::new();
    let mut read_body = Vec::new();
    let mut group: Vec<usize> = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let (ty, ident) = (&field.ty, &field.ident);
        let body = When::versions(body_range(field), known);
        let vcx = value_cx(field, known);
        let codec = if field.zero_copy.is_some() {
            quote!(#p::ZeroCopy)
        } else {
            quote!(#p::FieldRules)
        };
        size_body.push(body.guard(quote! {
            at = #index;
            match <#ty as #codec>::size_field(&self.#ident, #vcx, sizes) {
                #p::Ok(field_size) => size += field_size,
                #p::Err(error) => break 'fields error,
            }
        }));
        // Fixed-width fields one after another are gathered, and written together
        // when the next field is not one of them.
        if is_fixed_width(field) {
            group.push(index);
        } else {
            write_body.push(write_fixed(fields, &mut group, known));
            write_body.push(body.guard(quote! {
                if let #p::Err(error) = <#ty as #codec>::write_field(&self.#ident, w, #vcx, sizes) {
                    return #p::Err(error);
                }
            }));
        }
        read_body.push(body.guard(quote! {
            at = #index;
            if let #p::Err(error) = <#ty as #p::FieldRules>::read_field(&mut this.#ident, reader, #vcx) {
                break 'fields error;
            }
        }));
        // Kafka's presence rule for a version that lacks the field: only a field
        // that is neither ignorable nor in every version can be refused.
        let in_versions = When::versions(field.versions.range, known);
        if !field.ignorable && !matches!(in_versions, When::Always) {
            let lacking = in_versions.expr();
            let is_default = is_default_expr(field, index, quote!(&self.#ident));
            size_body.push(quote! {
                if !#lacking && !#is_default {
                    at = #index;
                    break 'fields #p::absent(v);
                }
            });
        }
    }

    write_body.push(write_fixed(fields, &mut group, known));

    // `unknown` binds the unknown-tags field, typed where it is taken so a field of
    // another type is reported on its type, once per kind of borrow.
    let (unknown_ref, unknown_mut) = match container.unknown_field() {
        Some(u) => {
            let span = u.ty_span;
            let mut field = u.ident.clone();
            field.set_span(span);
            (
                quote_spanned! {span=>
                    let unknown: &#p::UnknownTaggedFields = &self.#field;
                    let unknown = #p::Some(unknown);
                },
                quote_spanned! {span=>
                    let unknown: &mut #p::UnknownTaggedFields = &mut this.#field;
                    let unknown = #p::Some(unknown);
                },
            )
        }
        None => {
            let none = quote!(let unknown = #p::None;);
            (none.clone(), none)
        }
    };

    // The tagged section. A struct without tags of its own needs no section state.
    let (size_section, write_section, read_tags) = if tagged.is_empty() {
        (
            quote! {
                #unknown_ref
                match #p::TaggedSize::of_unknown_only(unknown, cx) {
                    #p::Ok(section_size) => size += section_size,
                    #p::Err(error) => return #p::Err(error),
                }
            },
            quote! {
                #unknown_ref
                #p::TaggedWriter::write_unknown_only(w, unknown);
            },
            Vec::new(),
        )
    } else {
        let mut size_tags = Vec::new();
        let mut write_tags = Vec::new();
        let mut read_tags = Vec::new();
        for &index in &tagged {
            let field = &fields[index];
            let (ty, ident) = (&field.ty, &field.ident);
            let tag = field.tag_number().unwrap_or_default();
            let when = When::versions(field.tagged.range, known).expr();
            let vcx = value_cx(field, known);
            let is_default = is_default_expr(field, index, quote!(&self.#ident));
            size_tags.push(quote! {
                at = #index;
                if let #p::Err(error) = <#ty as #p::FieldRules>::size_tagged(&self.#ident, &mut section, #tag, #when && !#is_default, #vcx, sizes) {
                    break 'fields error;
                }
            });
            write_tags.push(quote! {
                if let #p::Err(error) = <#ty as #p::FieldRules>::write_tagged(&self.#ident, &mut section, w, #tag, #vcx, sizes) {
                    return #p::Err(error);
                }
            });
            read_tags.push(quote! {
                #tag => if #when {
                    <#ty as #p::FieldRules>::read_tagged(&mut this.#ident, reader, &FIELDS[#index], #vcx)
                } else {
                    #p::Err(#p::tag_not_in_version(reader, &FIELDS[#index], v))
                },
            });
        }
        (
            quote! {
                let mut section = #p::TaggedSize::begin(#known_tags, cx, sizes);
                #(#size_tags)*
                #unknown_ref
                match section.finish(unknown, #known_tags, v) {
                    #p::Ok(section_size) => size += section_size,
                    #p::Err(error) => return #p::Err(error),
                }
            },
            quote! {
                #unknown_ref
                let mut section = match #p::TaggedWriter::begin(w, #known_tags, unknown, sizes) {
                    #p::Ok(section) => section,
                    #p::Err(error) => return #p::Err(error),
                };
                #(#write_tags)*
                section.finish(w);
            },
            read_tags,
        )
    };

    quote! {
        #[automatically_derived]
        impl #p::Wire for #ident {
            const TYPE: #p::TypeSchema = #p::TypeSchema::Struct(&<Self as #p::Struct>::STRUCT_SCHEMA);

            #strict

            #retained

            // unreachable_code: a struct whose fields cannot fail never leaves the block.
            #[inline]
            #[allow(unused_variables, unreachable_code, clippy::manual_range_contains)]
            fn size(&self, cx: #p::Cx, sizes: &mut #p::Sizes) -> #p::Result<::core::primitive::usize, #p::EncodeError> {
                let v = cx.version;
                let mut size = 0usize;
                // The field being sized, named once, on the way out, if one fails.
                let mut at = 0usize;
                let error: #p::EncodeError = 'fields: {
                    #(#size_body)*
                    #size_section
                    return #p::Ok(size);
                };
                #p::Err(#p::encode_error_in(error, &FIELDS[at]))
            }

            #[inline]
            #[allow(unused_variables, clippy::manual_range_contains)]
            fn write(&self, w: &mut #p::Writer, cx: #p::Cx, sizes: &mut #p::Sizes) -> #p::Result<(), #p::EncodeError> {
                let v = cx.version;
                #(#write_body)*
                if cx.flexible {
                    #write_section
                }
                #p::Ok(())
            }

            // Inline: an array builds each element from this where it will live, and a
            // value returned from an out-of-line call is copied with loads that stall
            // on the stores that just wrote it.
            #[inline]
            fn schema_default() -> Self {
                <Self as ::core::default::Default>::default()
            }

            // Inline: only top-level messages and nullable structs are read whole, and
            // compiled where they are; every other struct is read in place.
            #[inline]
            fn read(reader: &mut #p::Reader<'_>, cx: #p::Cx) -> #p::Result<Self, #p::DecodeError> {
                let mut this = <Self as ::core::default::Default>::default();
                <Self as #p::Wire>::read_in_place(&mut this, reader, cx)?;
                #p::Ok(this)
            }

            #[inline]
            #[allow(unused_variables, unreachable_code, clippy::manual_range_contains)]
            fn read_in_place(&mut self, reader: &mut #p::Reader<'_>, cx: #p::Cx) -> #p::Result<(), #p::DecodeError> {
                let v = cx.version;
                let this = self;
                // The field being read, named once, on the way out, if one fails.
                let mut at = 0usize;
                let error: #p::DecodeError = 'fields: {
                    #(#read_body)*
                    if cx.flexible {
                        return #p::read_tagged_section(reader, this, cx);
                    }
                    return #p::Ok(());
                };
                #p::Err(#p::decode_error_in(error, &FIELDS[at]))
            }
        }

        // Reached through a `dyn` from the one tagged-section loop in the runtime.
        #[automatically_derived]
        impl #p::ReadTagged for #ident {
            #[allow(unused_variables, clippy::manual_range_contains)]
            fn read_tag(&mut self, tag: ::core::primitive::u32, reader: &mut #p::Reader<'_>, cx: #p::Cx) -> #p::Result<::core::primitive::bool, #p::DecodeError> {
                let v = cx.version;
                let this = self;
                match tag {
                    #(#read_tags)*
                    _ => #p::Ok(false),
                }
            }

            fn unknown_tags(&mut self) -> #p::Option<&mut #p::UnknownTaggedFields> {
                let this = self;
                #unknown_mut
                unknown
            }
        }
    }
}

/// The `Nullable` impl: a nullable struct is a one-byte marker, then the struct.
/// Inline, so that a struct never nullable costs no code (`read_nullable` would
/// otherwise be compiled for every struct, with its whole decode inside).
pub fn nullable_impl(ident: &Ident) -> TokenStream {
    let p = private_path::private();
    quote! {
        #[automatically_derived]
        impl #p::Nullable for #ident {
            #[inline]
            fn null_size(_cx: #p::Cx) -> ::core::primitive::usize { 1 }
            #[inline]
            fn write_null(w: &mut #p::Writer, _cx: #p::Cx) { #p::write_struct_null(w) }
            #[inline]
            fn present_marker_size() -> ::core::primitive::usize { 1 }
            #[inline]
            fn write_present_marker(w: &mut #p::Writer) { #p::write_struct_present(w) }
            #[inline]
            fn read_nullable(reader: &mut #p::Reader<'_>, cx: #p::Cx)
                -> #p::Result<#p::Option<Self>, #p::DecodeError> {
                #p::read_nullable_struct(reader, cx)
            }
        }
    }
}
