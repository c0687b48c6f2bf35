//! One registered tool: its schemas, its normalizer, its validator and its
//! body behind one object-safe interface, whether typed or dynamic.

use crate::export::StrictSchema;
use crate::normalizer::{NormalizeError, Options, Repairer};
use crate::path::Path;
use crate::plan::SchemaPlan;
use crate::report::Report;
use crate::tool_args::ToolArgs;
use crate::validate::{Validator, Violation};
use serde::Serialize;
use serde_json::Value;
use std::any::Any;
use std::fmt::Display;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;

/// A boxed body future.
pub(crate) type BodyFuture = Pin<Box<dyn Future<Output = Result<Value, String>> + Send + 'static>>;

/// Typed arguments, type-erased between decoding and the body.
pub(crate) type Typed = Box<dyn Any + Send>;

/// What a body does, without its argument type.
pub(crate) trait Body: Send + Sync {
    /// Deserializes the arguments into the body's type (typed tools), or
    /// nothing (dynamic tools).
    fn decode(&self, arguments: &Value) -> Result<Option<Typed>, Violation>;
    /// Runs the body.
    fn run(&self, arguments: Value, typed: Option<Typed>) -> BodyFuture;
}

/// How a tool normalizes.
pub(crate) enum Normalize {
    /// The code `#[derive(ToolArgs)]` generated (canonical dialect), and
    /// the plan the type's contract compiled from the schema its validator
    /// reads (what a streamed call's early checks read).
    Derived(
        fn(&mut Repairer<'_>, &mut Value, &Path<'_>, usize) -> Result<(), NormalizeError>,
        &'static SchemaPlan,
    ),
    /// A plan compiled from the validating schema.
    Plan(Box<SchemaPlan>),
}

/// The validator: a typed tool's own (compiled once per type) or one
/// compiled at registration.
pub(crate) enum ValidatorRef {
    Static(&'static Validator),
    Owned(Box<Validator>),
}

impl std::ops::Deref for ValidatorRef {
    type Target = Validator;
    fn deref(&self) -> &Validator {
        match self {
            ValidatorRef::Static(v) => v,
            ValidatorRef::Owned(v) => v,
        }
    }
}

/// A registered tool.
pub(crate) struct Tool {
    pub(crate) name: String,
    pub(crate) description: String,
    /// The schema as the tool declares it.
    pub(crate) declared: Value,
    pub(crate) normalize: Normalize,
    /// Validates calls; its schema is the one exported.
    pub(crate) validator: ValidatorRef,
    /// The strict transform, in the strict dialect (to restore calls).
    pub(crate) strict: Option<StrictSchema>,
    /// The declared schema's validator, where it differs from `validator`
    /// (strict dialect): every call, restored to the body's shape, and
    /// every approved call is checked against it.
    pub(crate) declared_validator: Option<ValidatorRef>,
    pub(crate) body: Box<dyn Body>,
}

impl Tool {
    /// Normalizes `value` in place with `options`.
    pub(crate) fn normalize(
        &self,
        value: &mut Value,
        options: &Options,
    ) -> Result<Report, NormalizeError> {
        let mut report = Report::default();
        let mut repairer = Repairer::new(options, &mut report);
        match &self.normalize {
            Normalize::Derived(walk, _) => walk(&mut repairer, value, &Path::ROOT, 0)?,
            Normalize::Plan(plan) => repairer.walk(plan, &plan.root(), value, &Path::ROOT, 0)?,
        }
        Ok(report)
    }

    /// The schema the model is shown (exported): the declared schema, or its
    /// strict form. Calls are validated against the validator's schema, the
    /// same or (a derived type's) the same with serde's aliases.
    pub(crate) fn schema(&self) -> &Value {
        match &self.strict {
            Some(strict) => strict.schema(),
            None => &self.declared,
        }
    }
}

/// A typed body: `Fn(T) -> impl Future<Output = Result<O, E>>`.
pub(crate) struct TypedBody<T, F> {
    pub(crate) f: F,
    pub(crate) _args: PhantomData<fn() -> T>,
}

impl<T, F, Fut, O, E> Body for TypedBody<T, F>
where
    T: ToolArgs + Send,
    F: Fn(T) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, E>> + Send + 'static,
    O: Serialize,
    E: Display,
{
    fn decode(&self, arguments: &Value) -> Result<Option<Typed>, Violation> {
        match crate::tool_args::deserialize_at::<T>(arguments) {
            Ok(typed) => Ok(Some(Box::new(typed))),
            Err((pointer, message)) => Err(Violation::refused_by_type(pointer, message)),
        }
    }

    fn run(&self, _arguments: Value, typed: Option<Typed>) -> BodyFuture {
        let typed = typed.and_then(|t| t.downcast::<T>().ok());
        let Some(typed) = typed else {
            return Box::pin(std::future::ready(Err(
                "internal error: the typed arguments were not decoded".to_owned(),
            )));
        };
        let future = (self.f)(*typed);
        Box::pin(async move { finish(future.await) })
    }
}

/// A dynamic body: `Fn(Value) -> impl Future<Output = Result<O, E>>`.
pub(crate) struct DynamicBody<F> {
    pub(crate) f: F,
}

impl<F, Fut, O, E> Body for DynamicBody<F>
where
    F: Fn(Value) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, E>> + Send + 'static,
    O: Serialize,
    E: Display,
{
    fn decode(&self, _arguments: &Value) -> Result<Option<Typed>, Violation> {
        Ok(None)
    }

    fn run(&self, arguments: Value, _typed: Option<Typed>) -> BodyFuture {
        let future = (self.f)(arguments);
        Box::pin(async move { finish(future.await) })
    }
}

fn finish<O: Serialize, E: Display>(result: Result<O, E>) -> Result<Value, String> {
    match result {
        Ok(output) => serde_json::to_value(output)
            .map_err(|e| format!("the tool's result could not be serialized: {e}")),
        Err(error) => Err(error.to_string()),
    }
}
