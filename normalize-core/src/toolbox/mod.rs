//! The tool registry and dispatcher: the one place where a model's call
//! becomes a typed function call, or a rejection.
//!
//! ```text
//! raw call ──parse──▶ (name, args) ──resolve──▶ tool ──normalize──▶ args'
//!   ──validate──▶ typed args ──policy──▶ allowed call ──dispatch──▶ body(T)
//! ```
//!
//! Tools are registered with a name, a description and a body: typed
//! (taking a [`ToolArgs`] type) or dynamic (a JSON Schema known at run time
//! and a body taking a [`Value`]). Bodies are `async` (any future that is
//! `Send`; no particular runtime) or plain functions (`*_sync`).
//! [`Toolbox::call`] runs the whole pipeline; [`Toolbox::call_blocking`]
//! does the same from synchronous code. The same schema the toolbox
//! validates against is what [`Toolbox::export`] shows each provider
//! ([`Toolbox::check_drift`] proves it).

mod dispatch;
mod error;
mod tool;

pub use dispatch::{Checked, Completed};
pub use error::RegisterError;

use crate::export::{
    self, Dialect, Drift, Provider, StrictChange, StrictError, StrictSchema, ToolSpec,
};
use crate::normalizer::Options;
use crate::observe::Observer;
use crate::plan::SchemaPlan;
use crate::policy::{AllowAll, Policy};
use crate::tool_args::ToolArgs;
use crate::validate::Validator;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Display;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;
use tool::{DynamicBody, Normalize, Tool, TypedBody, ValidatorRef};

/// A set of tools, the policy that guards them and the schema dialect they
/// are shown and checked in. `C` is the application's caller context,
/// handed to the policy with each call.
pub struct Toolbox<C: ?Sized = ()> {
    tools: Vec<Tool>,
    by_name: HashMap<String, usize>,
    dialect: Dialect,
    options: Options,
    policy: Box<dyn Policy<C>>,
    observer: Option<Arc<dyn Observer>>,
    _context: PhantomData<fn(&C)>,
}

impl<C: ?Sized> Default for Toolbox<C> {
    fn default() -> Self {
        Toolbox::new()
    }
}

impl<C: ?Sized> std::fmt::Debug for Toolbox<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolbox")
            .field("tools", &self.names().collect::<Vec<_>>())
            .field("dialect", &self.dialect)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl<C: ?Sized> Toolbox<C> {
    /// An empty toolbox: canonical schemas, default options, every call
    /// allowed.
    pub fn new() -> Self {
        Toolbox {
            tools: Vec::new(),
            by_name: HashMap::new(),
            dialect: Dialect::Canonical,
            options: Options::default(),
            policy: Box::new(AllowAll),
            observer: None,
            _context: PhantomData,
        }
    }

    /// An empty toolbox that shows and validates `dialect` schemas. Choose
    /// it before registering: each tool's validating schema is computed at
    /// registration.
    pub fn with_dialect(dialect: Dialect) -> Self {
        Toolbox {
            dialect,
            ..Toolbox::new()
        }
    }

    /// The dialect in force.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Sets the normalization options used for every call.
    #[must_use]
    pub fn options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// The normalization options used for every call.
    pub fn call_options(&self) -> &Options {
        &self.options
    }

    /// Sets the policy consulted before every dispatch.
    #[must_use]
    pub fn policy(mut self, policy: impl Policy<C> + 'static) -> Self {
        self.policy = Box::new(policy);
        self
    }

    /// Sets the observer that receives every repair and failure record.
    #[must_use]
    pub fn observer(mut self, observer: Arc<dyn Observer>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// Registers a typed tool with an `async` body.
    ///
    /// # Errors
    ///
    /// [`RegisterError`] for a bad or duplicate name, a type whose contract
    /// does not compile ([`RegisterError::Contract`]), a schema that is not
    /// an object, or (strict dialect) a schema with no strict form.
    pub fn tool<T, F, Fut, O, E>(
        &mut self,
        name: &str,
        description: &str,
        body: F,
    ) -> Result<&mut Self, RegisterError>
    where
        T: ToolArgs + Send,
        F: Fn(T) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, E>> + Send + 'static,
        O: Serialize + 'static,
        E: Display + 'static,
    {
        let contract = |source| RegisterError::Contract {
            name: name.to_owned(),
            source,
        };
        let declared = T::try_input_schema().map_err(contract)?;
        let compiled = T::__contract().map_err(|error| contract(error.clone()))?;
        let derived_validator = &compiled.validator;
        let (normalize, validator, strict, declared_validator) = match self.dialect {
            Dialect::Canonical => (
                Normalize::Derived(T::__normalize_in, &compiled.plan),
                ValidatorRef::Static(derived_validator),
                None,
                None,
            ),
            Dialect::OpenAiStrict => {
                let (normalize, validator, strict) =
                    strict_parts(name, declared, StrictSchema::of::<T>)?;
                (
                    normalize,
                    validator,
                    Some(strict),
                    Some(ValidatorRef::Static(derived_validator)),
                )
            }
        };
        self.add(Tool {
            name: name.to_owned(),
            description: description.to_owned(),
            declared: declared.clone(),
            normalize,
            validator,
            strict,
            declared_validator,
            body: Box::new(TypedBody {
                f: body,
                _args: PhantomData,
            }),
        })
    }

    /// Registers a typed tool with a synchronous body.
    ///
    /// # Errors
    ///
    /// As [`Toolbox::tool`].
    pub fn tool_sync<T, F, O, E>(
        &mut self,
        name: &str,
        description: &str,
        body: F,
    ) -> Result<&mut Self, RegisterError>
    where
        T: ToolArgs + Send,
        F: Fn(T) -> Result<O, E> + Send + Sync + 'static,
        O: Serialize + Send + 'static,
        E: Display + Send + 'static,
    {
        self.tool(name, description, move |args: T| {
            std::future::ready(body(args))
        })
    }

    /// Registers a tool whose schema is known only at run time (an MCP
    /// server's tools, tools from configuration), with an `async` body that
    /// receives the normalized, validated arguments.
    ///
    /// # Errors
    ///
    /// As [`Toolbox::tool`], plus a schema that does not compile.
    pub fn dynamic_tool<F, Fut, O, E>(
        &mut self,
        name: &str,
        description: &str,
        schema: Value,
        body: F,
    ) -> Result<&mut Self, RegisterError>
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, E>> + Send + 'static,
        O: Serialize + 'static,
        E: Display + 'static,
    {
        let (normalize, validator, strict, declared_validator) = match self.dialect {
            Dialect::Canonical => {
                require_object(name, &schema)?;
                let validator = compile_validator(name, &schema)?;
                (plan(name, &schema)?, validator, None, None)
            }
            Dialect::OpenAiStrict => {
                let (normalize, validator, strict) =
                    strict_parts(name, &schema, || StrictSchema::new(&schema))?;
                let declared = compile_validator(name, &schema)?;
                (normalize, validator, Some(strict), Some(declared))
            }
        };
        self.add(Tool {
            name: name.to_owned(),
            description: description.to_owned(),
            declared: schema,
            normalize,
            validator,
            strict,
            declared_validator,
            body: Box::new(DynamicBody { f: body }),
        })
    }

    /// Registers a dynamic tool with a synchronous body.
    ///
    /// # Errors
    ///
    /// As [`Toolbox::dynamic_tool`].
    pub fn dynamic_tool_sync<F, O, E>(
        &mut self,
        name: &str,
        description: &str,
        schema: Value,
        body: F,
    ) -> Result<&mut Self, RegisterError>
    where
        F: Fn(Value) -> Result<O, E> + Send + Sync + 'static,
        O: Serialize + Send + 'static,
        E: Display + Send + 'static,
    {
        self.dynamic_tool(name, description, schema, move |args| {
            std::future::ready(body(args))
        })
    }

    fn add(&mut self, tool: Tool) -> Result<&mut Self, RegisterError> {
        if !error::valid_name(&tool.name) {
            return Err(RegisterError::InvalidName { name: tool.name });
        }
        if self.by_name.contains_key(&tool.name) {
            return Err(RegisterError::Duplicate { name: tool.name });
        }
        require_object(&tool.name, &tool.declared)?;
        self.by_name.insert(tool.name.clone(), self.tools.len());
        self.tools.push(tool);
        Ok(self)
    }

    /// The registered names, in registration order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|t| t.name.as_str())
    }

    /// The schema `name`'s model is shown (and exported). Its calls are
    /// validated against it, or (a derived type) against its projection
    /// that also takes serde's aliases, which accepts every call it accepts.
    pub fn schema(&self, name: &str) -> Option<&Value> {
        self.find(name).map(Tool::schema)
    }

    /// The validator `name`'s calls are checked with and the compiled
    /// form of its schema: compiled at registration, or (a derived tool in
    /// the canonical dialect, which normalizes with its generated code) its
    /// type's contract's. What a streamed call to `name` reads.
    pub(crate) fn checked_against(&self, name: &str) -> Option<(&SchemaPlan, &Validator)> {
        let tool = self.find(name)?;
        let plan = match &tool.normalize {
            tool::Normalize::Plan(plan) => plan,
            tool::Normalize::Derived(_, plan) => *plan,
        };
        Some((plan, &*tool.validator))
    }

    /// The schema `name` declares (before any dialect transform).
    pub fn declared_schema(&self, name: &str) -> Option<&Value> {
        self.find(name).map(|t| &t.declared)
    }

    /// What the strict transform changed in `name`'s schema (strict
    /// dialect only): removed keywords, nullable optionals, maps as pairs.
    pub fn strict_changes(&self, name: &str) -> Option<&[StrictChange]> {
        self.find(name)?.strict.as_ref().map(StrictSchema::changes)
    }

    fn find(&self, name: &str) -> Option<&Tool> {
        self.by_name.get(name).map(|&i| &self.tools[i])
    }

    /// A constrained-decoding grammar for a whole call to any registered
    /// tool: `{"name": <a registered name>, "arguments": <that tool's
    /// arguments>}`, built from the validating schemas, so an unregistered
    /// tool cannot be sampled.
    ///
    /// # Errors
    ///
    /// The [`GrammarError`](crate::grammar::GrammarError) of a schema the
    /// grammar compiler cannot use.
    pub fn call_grammar(
        &self,
    ) -> Result<crate::grammar::CallGrammar, crate::grammar::GrammarError> {
        crate::grammar::CallGrammar::new(self.tools.iter().map(|t| (t.name.as_str(), t.schema())))
    }

    /// Every tool's definition for `provider` (see [`export`] for each
    /// shape), carrying the validating schema itself.
    pub fn export(&self, provider: Provider) -> Value {
        export::definitions(
            provider,
            self.dialect,
            self.tools.iter().map(|t| ToolSpec {
                name: &t.name,
                description: &t.description,
                schema: t.schema(),
            }),
        )
    }

    /// Proves that what each provider is shown is what calls are validated
    /// against: for every tool, the validating schema is the dialect's
    /// transform of the declared schema, and every provider's export
    /// carries exactly that schema.
    ///
    /// # Errors
    ///
    /// The first [`Drift`] found.
    pub fn check_drift(&self) -> Result<(), Drift> {
        for tool in &self.tools {
            let expected = match self.dialect {
                Dialect::Canonical => {
                    // A derived type's validating schema shows as the
                    // declared one once its aliases are left out.
                    let validating = tool.validator.schema();
                    if validating != &tool.declared && export::shown(validating) != tool.declared {
                        return Err(Drift {
                            tool: tool.name.clone(),
                            provider: None,
                            detail: "the validating schema is not the shown schema with serde's \
                                     aliases"
                                .to_owned(),
                        });
                    }
                    tool.declared.clone()
                }
                Dialect::OpenAiStrict => match StrictSchema::new(&tool.declared) {
                    Ok(strict) => strict.schema().clone(),
                    Err(e) => {
                        return Err(Drift {
                            tool: tool.name.clone(),
                            provider: None,
                            detail: e.to_string(),
                        });
                    }
                },
            };
            if &expected != tool.schema() {
                return Err(Drift {
                    tool: tool.name.clone(),
                    provider: None,
                    detail:
                        "the validating schema is not the dialect's form of the declared schema"
                            .to_owned(),
                });
            }
        }
        for provider in Provider::ALL {
            let exported = self.export(provider);
            export::drift::check(
                provider,
                &exported,
                self.tools.iter().map(|t| (t.name.as_str(), t.schema())),
            )?;
        }
        Ok(())
    }
}

fn require_object(name: &str, schema: &Value) -> Result<(), RegisterError> {
    if schema.get("type").and_then(Value::as_str) == Some("object") {
        Ok(())
    } else {
        Err(RegisterError::RootNotObject {
            name: name.to_owned(),
        })
    }
}

fn compile_validator(name: &str, schema: &Value) -> Result<ValidatorRef, RegisterError> {
    Validator::new(schema)
        .map(|v| ValidatorRef::Owned(Box::new(v)))
        .map_err(|source| RegisterError::Validator {
            name: name.to_owned(),
            source,
        })
}

fn plan(name: &str, schema: &Value) -> Result<Normalize, RegisterError> {
    SchemaPlan::compile(schema)
        .map(|p| Normalize::Plan(Box::new(p)))
        .map_err(|source| RegisterError::Schema {
            name: name.to_owned(),
            source,
        })
}

fn strict_parts(
    name: &str,
    declared: &Value,
    strict: impl FnOnce() -> Result<StrictSchema, StrictError>,
) -> Result<(Normalize, ValidatorRef, StrictSchema), RegisterError> {
    require_object(name, declared)?;
    let strict = strict().map_err(|source| RegisterError::Strict {
        name: name.to_owned(),
        source,
    })?;
    let validator = compile_validator(name, strict.schema())?;
    let normalize = plan(name, strict.schema())?;
    Ok((normalize, validator, strict))
}
